/**
 * The look of the Swagger UI at /docs: our name instead of the Fastify / Swagger logo and
 * favicon, the page title, and a link back to the explorer (`/`) in the top bar. Everything is
 * served by @fastify/swagger-ui's theme routes (same origin, so the docs' CSP holds: no inline
 * script). Sizes: the UI's bundle (about 1.7 MB as shipped) is compressed on the wire
 * (plugins/compression.ts: about 0.45 MB with br) and revalidated by ETag, not re-downloaded.
 */

/** The top bar's logo: the service's name; the link around it leads back to the explorer. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40" viewBox="0 0 260 40" role="img" aria-label="bridge-oracle API">
<rect width="40" height="40" rx="8" fill="#2957c7"/>
<path d="M8 27c4-10 20-10 24 0" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/>
<path d="M6 27h28" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
<text x="50" y="27" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#ffffff">bridge-oracle API</text>
</svg>`;

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#2957c7"/><path d="M8 27c4-10 20-10 24 0M6 27h28" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/></svg>`;

/** Puts "← Explorer" in the top bar and points the logo's link at the explorer too. */
const BACK_LINK_JS = `(function () {
  function place() {
    var bar = document.querySelector("#swagger-ui .topbar-wrapper");
    if (!bar) return false;
    var logo = bar.querySelector("a.link");
    if (logo) { logo.href = "/"; logo.setAttribute("aria-label", "bridge-oracle explorer"); }
    if (!bar.querySelector(".back-to-explorer")) {
      var back = document.createElement("a");
      back.className = "back-to-explorer";
      back.href = "/";
      back.textContent = "\\u2190 Explorer";
      bar.appendChild(back);
    }
    return true;
  }
  if (place()) return;
  var observer = new MutationObserver(function () { if (place()) observer.disconnect(); });
  observer.observe(document.documentElement, { childList: true, subtree: true });
})();
`;

const THEME_CSS = `.swagger-ui .topbar { background: #1d2330; }
.swagger-ui .topbar .topbar-wrapper { gap: 16px; }
.swagger-ui .topbar a.back-to-explorer { color: #fff; font: 600 15px system-ui, sans-serif;
  padding: 8px 12px; border: 1px solid #8fa7e6; border-radius: 6px; text-decoration: none;
  white-space: nowrap; }
.swagger-ui .topbar a.back-to-explorer:focus-visible { outline: 3px solid #8fa7e6; }
`;

export const DOCS_THEME = {
  title: "bridge-oracle API",
  css: [{ filename: "bridge-oracle.css", content: THEME_CSS }],
  js: [{ filename: "back-to-explorer.js", content: BACK_LINK_JS }],
  favicon: [
    {
      filename: "favicon.svg",
      rel: "icon",
      type: "image/svg+xml",
      sizes: "any",
      content: FAVICON_SVG,
    },
  ],
};

export const DOCS_LOGO = { type: "image/svg+xml", content: LOGO_SVG, href: "/" };
