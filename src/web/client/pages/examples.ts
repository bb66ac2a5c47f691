import { h } from "../dom.ts";

/** Copy-paste examples: curl, TypeScript (fetch + stream), Python (requests + SSE). */
export function examples(origin: string): HTMLElement {
  const curl = `curl -s ${origin}/api/query \\
  -H "Authorization: Bearer $RQ_KEY" -H "Content-Type: application/json" \\
  -d '{"query": "What limits solid-state batteries?"}'

# streamed, with progress
curl -N ${origin}/api/query/stream \\
  -H "Authorization: Bearer $RQ_KEY" -H "Content-Type: application/json" \\
  -d '{"query": "What limits solid-state batteries?"}'`;
  const ts = `const res = await fetch("${origin}/api/query/stream", {
  method: "POST",
  headers: { Authorization: \`Bearer \${process.env.RQ_KEY}\`, "Content-Type": "application/json" },
  body: JSON.stringify({ query: "What limits solid-state batteries?" }),
});
const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
let buf = "";
for (;;) {
  const { done, value } = await reader.read();
  if (done) break;
  buf += value;
  let i;
  while ((i = buf.indexOf("\\n\\n")) >= 0) {
    const block = buf.slice(0, i); buf = buf.slice(i + 2);
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event === "answer") process.stdout.write(JSON.parse(data!).delta);
    if (event === "final") console.log("\\n", JSON.parse(data!).sources);
  }
}`;
  const py = `import json, os, requests

with requests.post("${origin}/api/query/stream", stream=True, timeout=300,
                   headers={"Authorization": f"Bearer {os.environ['RQ_KEY']}"},
                   json={"query": "What limits solid-state batteries?"}) as r:
    event = None
    for line in r.iter_lines(decode_unicode=True):
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data = json.loads(line[5:])
            if event == "answer":
                print(data["delta"], end="", flush=True)
            elif event == "final":
                print("\\n", [s["url"] for s in data["sources"]])`;
  const block = (title: string, code: string) =>
    h("section", {}, h("h3", {}, title), h("pre", { tabindex: 0 }, h("code", {}, code)));
  return h(
    "div",
    {},
    h("p", { class: "muted" }, "Keys belong on a server: anyone who loads a page can read a key used in a browser."),
    block("curl", curl),
    block("TypeScript (fetch + stream)", ts),
    block("Python (requests + SSE)", py),
  );
}
