// Section 19's collectors in a process of their own (so decoding exports never slows the bench's
// client): `live` decodes every export, `hang` accepts and never answers. Prints {url}.
import { startOtlpReceiver } from "../helpers/otlp-receiver.ts";

const r = startOtlpReceiver({ hang: process.argv[2] === "hang" });
console.log(JSON.stringify({ url: r.url }));
