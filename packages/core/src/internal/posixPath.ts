/**
 * POSIX path arithmetic without a runtime, for places that have no `Path` service at hand
 * (decoding a document, a preset's discovery).
 */

/** @internal */
export const join = (...parts: ReadonlyArray<string>): string => parts.join("/").replace(/\/+/g, "/")

/** `relative` against the folder `dir` (absolute `relative` stays as is), normalised. @internal */
export const resolve = (dir: string, relative: string): string => {
  const out: Array<string> = []
  for (const part of (relative.startsWith("/") ? relative : `${dir}/${relative}`).split("/")) {
    if (part === "" || part === ".") continue
    if (part === "..") out.pop()
    else out.push(part)
  }
  return `/${out.join("/")}`
}

/** @internal */
export const dirname = (file: string): string => {
  const index = file.lastIndexOf("/")
  return index <= 0 ? "/" : file.slice(0, index)
}
