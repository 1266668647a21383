// SPDX-License-Identifier: Apache-2.0
// Every interval of an HdrHistogram log (argv[2]) as decoded by HistogramLogReader of the
// hdr-histogram-js module at argv[3], one JSON object a line (check_export_hdr.py reads them).
const fs = require("fs");
const hdr = require(process.argv[3]);
const reader = new hdr.HistogramLogReader(fs.readFileSync(process.argv[2], "utf8"));
let h;
while ((h = reader.nextIntervalHistogram()) !== null)
	console.log(JSON.stringify({ tag: h.tag, start_ms: h.startTimeStampMsec,
		end_ms: h.endTimeStampMsec, count: h.totalCount,
		p99: h.getValueAtPercentile(99), max: h.maxValue }));
