import { setDefaultTimeout } from "bun:test";

// Runs start real servers and fixture upstreams; a 2-core CI machine needs headroom.
setDefaultTimeout(30_000);
