/**
 * The built documentation site in a real browser: headless Chromium (Debian's `chromium`
 * package, or $CHROMIUM_PATH) driven by puppeteer-core loads the start page, an event page and the
 * search, checks that the content rendered and that the browser logged no console error, and
 * saves a screenshot of each under docs/test/output/.
 *
 * The site is the one `npm test` builds before the lanes (docs/.vitepress/dist); when it is
 * missing (a lone run of this file) the test builds it. Without Chromium the test is skipped and
 * its name says why (CI's .ci/run installs `chromium` with apt-get when it can).
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize } from "node:path"
import { fileURLToPath } from "node:url"
import * as Agents from "@agent-hooks/core/Agents"
import puppeteer, { type Browser, type Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const docsDir = fileURLToPath(new URL("..", import.meta.url))
const distDir = join(docsDir, ".vitepress", "dist")
const outputDir = join(docsDir, "test", "output")

const chromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find(
  (p): p is string => p !== undefined && p !== "" && existsSync(p)
)

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".png": "image/png"
}

/** A static server for the built site, resolving clean URLs (`/events/Stop` → `events/Stop.html`). */
const serve = (root: string): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "")
      const candidates = [join(root, path), join(root, path, "index.html"), join(root, `${path}.html`)]
      const file = candidates.find((c) => c.startsWith(root) && existsSync(c) && statSync(c).isFile())
      if (file === undefined) {
        res.writeHead(404, { "content-type": "text/html" }).end(readFileSync(join(root, "404.html")))
        return
      }
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file))
    })
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

/** Console errors, page errors and failed requests of one page. */
const watch = (page: Page): Array<string> => {
  const problems: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`)
  })
  page.on("pageerror", (e) => problems.push(`page error: ${e instanceof Error ? e.message : String(e)}`))
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? "?"})`))
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`)
  })
  return problems
}

describe.skipIf(chromium === undefined)(
  chromium === undefined
    ? "the built site in headless Chromium (SKIPPED: no Chromium; apt-get install chromium, or set CHROMIUM_PATH)"
    : `the built site in headless Chromium (${chromium})`,
  () => {
    let server: Server
    let browser: Browser
    let base: string

    beforeAll(async () => {
      if (!existsSync(join(distDir, "index.html"))) {
        const generated = spawnSync(process.execPath, [join(docsDir, "scripts", "generate.ts")], { encoding: "utf8", stdio: "pipe" })
        if (generated.status !== 0) throw new Error(`docs/scripts/generate.ts failed:\n${generated.stderr}`)
        const built = spawnSync(process.execPath, [join(docsDir, "node_modules", "vitepress", "bin", "vitepress.js"), "build", docsDir], {
          encoding: "utf8",
          stdio: "pipe"
        })
        if (built.status !== 0) throw new Error(`vitepress build failed:\n${built.stdout}\n${built.stderr}`)
      }
      mkdirSync(outputDir, { recursive: true })
      server = await serve(distDir)
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      browser = await puppeteer.launch({
        executablePath: chromium!,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
      })
    }, 240_000)

    afterAll(async () => {
      await browser?.close()
      await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
    })

    const open = async (path: string): Promise<{ page: Page; problems: Array<string> }> => {
      const page = await browser.newPage()
      await page.setViewport({ width: 1280, height: 900 })
      const problems = watch(page)
      await page.goto(`${base}${path}`, { waitUntil: "networkidle0", timeout: 30_000 })
      return { page, problems }
    }

    it("start page: what agent-hooks is for, the three commands, every agent of the registry (page and sidebar), then the guide; no console error", async () => {
      const { page, problems } = await open("/")
      const h1 = await page.$eval(".vp-doc h1", (e) => e.textContent ?? "")
      expect(h1).toContain("agent-hooks")
      const text = await page.$eval(".vp-doc", (e) => e.textContent ?? "")
      expect(text).toContain("One policy, every coding agent.")
      for (const command of ["agent-hooks init", "agent-hooks install --host", "agent-hooks doctor --host"]) expect(text).toContain(command)
      const names = Agents.profiles.map((profile) => profile.host.displayName)
      // the first table after the heading "The agents": its first column
      const tableAgents = await page.$eval(".vp-doc h2#the-agents", (heading) => {
        let at = heading.nextElementSibling
        while (at && at.tagName !== "TABLE") at = at.nextElementSibling
        return [...(at?.querySelectorAll("tbody tr td:first-child") ?? [])].map((e) => e.textContent?.trim() ?? "")
      })
      expect(tableAgents).toEqual(names)
      const h2 = await page.$$eval(".vp-doc h2", (els) => els.map((e) => e.textContent?.replace(/\u200b|#/g, "").trim() ?? ""))
      expect(h2.indexOf("The guide")).toBeGreaterThan(h2.indexOf("The agents"))
      const sidebar = await page.$$eval(".VPSidebar .text", (els) => els.map((e) => e.textContent?.trim() ?? ""))
      expect(sidebar).toEqual(
        expect.arrayContaining(["Getting started", "Agents as hosts", "Concepts", "Events", "Recipes", "Security", ...names])
      )
      await page.screenshot({ path: join(outputDir, "start.png") })
      expect(problems).toEqual([])
      await page.close()
    })

    it("an event page: PreToolUse with its table and example hook", async () => {
      const { page, problems } = await open("/events/PreToolUse.html")
      expect(await page.$eval(".vp-doc h1", (e) => e.textContent ?? "")).toContain("PreToolUse")
      const text = await page.$eval(".vp-doc", (e) => e.textContent ?? "")
      expect(text).toContain("At a glance")
      expect(text).toContain("tool_name")
      expect(text).toContain("permissionDecision")
      // The example's settings file block shows its file name.
      expect(await page.$$eval(".docs-file", (els) => els.map((e) => e.getAttribute("data-file")))).toContain(".agent-hooks/settings.json")
      await page.screenshot({ path: join(outputDir, "event-PreToolUse.png"), fullPage: false })
      expect(problems).toEqual([])
      await page.close()
    })

    it("the search finds an event page", async () => {
      const { page, problems } = await open("/")
      await page.click(".VPNavBarSearch .DocSearch-Button")
      await page.waitForSelector("#localsearch-input", { timeout: 10_000 })
      await page.type("#localsearch-input", "PermissionDenied")
      await page.waitForSelector(".VPLocalSearchBox .result", { timeout: 15_000 })
      await page.screenshot({ path: join(outputDir, "search.png") })
      const hrefs = await page.$$eval(".VPLocalSearchBox .result", (els) => els.map((e) => e.getAttribute("href") ?? ""))
      expect(
        hrefs.filter((h) => h.includes("events/PermissionDenied")),
        `search results: ${hrefs.join(", ")}`
      ).not.toEqual([])
      expect(problems).toEqual([])
      await page.close()
    })
  }
)
