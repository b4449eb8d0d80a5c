/** The page's only stylesheet (inline; the page loads nothing from anywhere). */
export const PAGE_CSS = `
:root { color-scheme: light; }
body { margin: 0; background: #fafafa; color: #222;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; background: white; }
h1 { font-size: 24px; margin: 0 0 12px; }
h2 { font-size: 19px; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid #ddd; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code { font: 12px/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f3f3; padding: 0 3px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { background: #f3f5f8; }
table.header th { background: #f3f5f8; width: 90px; }
table.compact { font-size: 12px; }
td small { color: #666; }
.pass { color: #1a7f37; font-weight: 600; }
.fail { color: #c62828; font-weight: 600; }
.absent { color: #555; }
.absent li { margin: 2px 0; }
figure { margin: 16px 0 28px; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #444; font-size: 13px; max-width: 900px; margin-top: 4px; }
details summary { cursor: pointer; margin: 8px 0; }
.note { color: #555; font-size: 13px; }
details.cell-examples { border: 1px solid #ddd; border-radius: 4px; padding: 2px 10px; margin: 6px 0; }
details.cell-examples.failing > summary b { color: #c62828; }
article.example { border-top: 1px dashed #ddd; padding: 6px 0; }
article.example h4 { font-size: 13px; margin: 6px 0; }
article.example.failure h4 { color: #c62828; }
ul.issues { margin: 2px 0 6px; padding-left: 20px; font-size: 12px; color: #444; }
table.trace { font-size: 12px; }
table.trace td { max-width: 480px; overflow-wrap: anywhere; }
table.trace tr.elided td { color: #666; font-style: italic; }
table.trace tr.divergent { background: #fdecea; outline: 2px solid #c62828; }
table.trace tr.differs { background: #fff6f5; }
table.trace tr.answer { border-top: 2px solid #444; background: #f3f5f8; }
table.trace tr.answer.differs th { color: #c62828; }
table.trace .tag { font-weight: 600; color: #c62828; white-space: nowrap; }
table.trace tr.answer.matches .tag { color: #1a7f37; }
details.text pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 320px; overflow: auto;
  background: #f7f7f7; padding: 6px; font-size: 12px; }
`;
