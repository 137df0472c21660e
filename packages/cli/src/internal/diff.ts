/**
 * A unified diff of two texts, line by line (longest common subsequence), with three lines of
 * context: what `--dry-run` shows. Config files are small; past 4,000 lines each, the whole old and
 * new texts are shown as one hunk instead.
 */
export const unifiedDiff = (oldText: string, newText: string, oldName: string, newName: string): string => {
  const a = oldText === "" ? [] : oldText.replace(/\n$/, "").split("\n")
  const b = newText === "" ? [] : newText.replace(/\n$/, "").split("\n")
  type Op = { readonly kind: " " | "-" | "+"; readonly line: string }
  let ops: Array<Op>
  if (a.length * b.length > 16_000_000) {
    ops = [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))]
  } else {
    const n = a.length
    const m = b.length
    const lcs: Array<Uint32Array> = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    }
    ops = []
    let i = 0
    let j = 0
    while (i < n || j < m) {
      if (i < n && j < m && a[i] === b[j]) {
        ops.push({ kind: " ", line: a[i]! })
        i++
        j++
      } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ kind: "+", line: b[j++]! })
      else ops.push({ kind: "-", line: a[i++]! })
    }
  }
  const out = [`--- ${oldName}`, `+++ ${newName}`]
  const context = 3
  let k = 0
  while (k < ops.length) {
    if (ops[k]!.kind === " ") {
      k++
      continue
    }
    let start = Math.max(0, k - context)
    let end = k
    // extend the hunk while changes are within 2 * context lines of each other
    while (end < ops.length) {
      if (ops[end]!.kind !== " ") {
        end++
        continue
      }
      let next = end
      while (next < ops.length && ops[next]!.kind === " ") next++
      if (next < ops.length && next - end <= 2 * context) end = next
      else break
    }
    const stop = Math.min(ops.length, end + context)
    const oldStart = ops.slice(0, start).filter((op) => op.kind !== "+").length
    const newStart = ops.slice(0, start).filter((op) => op.kind !== "-").length
    const hunk = ops.slice(start, stop)
    const oldCount = hunk.filter((op) => op.kind !== "+").length
    const newCount = hunk.filter((op) => op.kind !== "-").length
    out.push(`@@ -${oldCount === 0 ? oldStart : oldStart + 1},${oldCount} +${newCount === 0 ? newStart : newStart + 1},${newCount} @@`)
    for (const op of hunk) out.push(`${op.kind}${op.line}`)
    k = stop
    start = stop
  }
  return `${out.join("\n")}\n`
}
