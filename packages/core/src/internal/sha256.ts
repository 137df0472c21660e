/**
 * SHA-256 as lowercase hex, through Effect's `Digest` over the runtime's Web Crypto (Node, Bun,
 * Deno and browsers have it): the audit chain's record hashes and the trust store's fingerprints.
 *
 * @internal
 */
import * as Digest from "effect/crypto/Digest"
import * as Effect from "effect/Effect"

/** The digest service, built once (building its layer for every hash cost more than the hash). */
let service: Digest.Digest["Service"] | undefined

interface TextCodec {
  encode(text: string): Uint8Array
}
const encoder: TextCodec = new (globalThis as unknown as { readonly TextEncoder: new () => TextCodec }).TextEncoder()

/** @internal */
export const sha256Hex = (data: string | Uint8Array): Effect.Effect<string> =>
  Effect.suspend(() => {
    service ??= Effect.runSync(
      Effect.provide(
        Effect.gen(function* () {
          return yield* Digest.Digest
        }),
        Digest.layerWebCrypto
      )
    )
    return service.digestHex(Digest.sha256, typeof data === "string" ? encoder.encode(data) : data)
  })
