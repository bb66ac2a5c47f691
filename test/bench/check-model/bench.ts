import { costTable, wiceRows } from "../claims.ts";
import { everySourceCost } from "./cost.ts";
import { haveData } from "./data.ts";
import { figures } from "./figures.ts";
import { train } from "./train.ts";

/**
 * Section 15 of `bun run bench`: the learned check trained again from the tuning data (and
 * compared with the weights the binary carries), its cross-validated figures, and the cost of
 * checking one run's worth of text with it.
 */
export async function benchCheckModel(): Promise<string> {
  if (!haveData()) return "The learned check: skipped — the tuning data is absent (see ../shared/data/README.md).";
  const t = train();
  const rows = await wiceRows();
  const shipped = await Bun.file(new URL("../../../src/research/write/verify/weights.json", import.meta.url)).text();
  return [
    `Trained again from WiCE dev and SciFact train (${t.rows.length} rows): weights.json ${shipped === t.json ? "reproduced byte for byte" : "DIFFERS from this training"}; thresholds ${JSON.stringify(t.thresholds)}.`,
    "",
    figures(t),
    "",
    costTable(rows),
    everySourceCost(rows),
  ].join("\n");
}

if (import.meta.main) console.log(await benchCheckModel());
