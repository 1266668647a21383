/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interval histograms as HdrHistogram interval logs (`lockstep export hdr`), which
 * HdrHistogram's own tools read (HistogramLogReader in Java, C, JavaScript, ...).
 *
 * Each histogram is written in HdrHistogram's V2 compressed encoding: a V2 encoding (cookie
 * 0x1c849313, 40 bytes of header, then the counts as ZigZag LEB128 with runs of zeros as one
 * negative number) deflated with zlib behind cookie 0x1c849314, and base64 in the log line. The
 * HdrHistogram is 1 ns .. LST_HIST_MAX_NS with 2 significant digits: 128 buckets per power of two,
 * finer than lockstep's 64, so each lockstep bucket's count goes whole into the HdrHistogram
 * bucket of its midpoint: counts are exact, values within lockstep's bucket (below 1/64).
 * lockstep's overflow (2^36 ns and more) is written at the histogram's exact max.
 */
#ifndef LST_EXPORT_HDR_H
#define LST_EXPORT_HDR_H

#include <stdio.h>

#include "lst_err.h"
#include "lst_hist.h"

/*
 * h in the V2 compressed encoding, base64 ("HISTFAAA..."), NUL-terminated: the caller's to
 * free. NULL only when zlib fails (it does not for these sizes).
 */
char *lst_export_hdr_encode(const lst_hist *h);

/* The log's header: format version, StartTime and BaseTime (base_s, seconds since the epoch:
 * the run's shared clock), the column names. Returns 0 or -EIO. */
int lst_export_hdr_header(FILE *f, double base_s);

/* One interval line: "Tag=TAG,START,LENGTH,MAX,HISTOGRAM" (START seconds from the base time,
 * MAX in ms as HistogramLogWriter writes it). tag may be NULL. Returns 0 or -EIO. */
int lst_export_hdr_line(FILE *f, const char *tag, double start_s, double length_s,
			const lst_hist *h);

#endif
