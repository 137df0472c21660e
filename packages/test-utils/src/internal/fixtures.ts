import { fileURLToPath } from "node:url"

/** @internal */
export const directory: string = fileURLToPath(new URL("../../fixtures/", import.meta.url))

/** @internal */
export const path = (name: string): string => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url))
