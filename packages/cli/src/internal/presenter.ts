import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as CliOutput from "effect/cli/CliOutput"
import * as TerminalCapabilities from "effect/cli/TerminalCapabilities"

/**
 * Help and version go to stdout; an invalid command line shows the help and the errors on
 * stderr, so that stdout of `run` only ever holds an Outcome.
 *
 * @internal
 */
export const presenter = CliOutput.layerPresenter({
  present: (event) =>
    Effect.gen(function* () {
      const context = yield* Effect.context<never>()
      const formatter =
        Context.getOrUndefined(context, CliOutput.Formatter) ??
        CliOutput.defaultFormatter({ colors: Context.get(context, TerminalCapabilities.TerminalCapabilities).canColor })
      switch (event._tag) {
        case "Help":
          return yield* Console.log(formatter.formatHelpDoc(event.helpDoc))
        case "Version":
          return yield* Console.log(formatter.formatVersion(event.name, event.version))
        case "InvalidInvocation":
          yield* Console.error(formatter.formatHelpDoc(event.helpDoc))
          return yield* Console.error(formatter.formatErrors(event.errors))
      }
    })
})
