// The default VitePress theme, plus the label on code blocks that the docs tests do not run.
import DefaultTheme from "vitepress/theme"
import "./custom.css"

export default DefaultTheme
