/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HdrHistogram's V2 compressed encoding and interval log lines (lst_export_hdr.h), written from
 * HdrHistogram's published format (HdrHistogram_c's hdr_histogram_log.c, the Java
 * HistogramLogWriter): big-endian header fields, ZigZag LEB128 counts, zlib, base64.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "lst_export_hdr.h"
#include "lst_util.h"

#define S_ENCODING_COOKIE 0x1c849313u	 /* V2 base 0x1c849303 | word size 8 << 4 */
#define S_COMPRESSION_COOKIE 0x1c849314u /* V2 base 0x1c849304 | 8 << 4 */
#define S_DIGITS 2	 /* significant digits: 256 sub-buckets, 128 per power of two */
#define S_HALF_MAG 7	 /* log2 of the sub-buckets per power of two */
#define S_HEADER 40	 /* the V2 encoding's header */
#define S_MAX_INDEX 7424 /* past the counts index of any 64-bit value (2^64 - 1: 7423) */

/* HdrHistogram's counts index of v (lowest value 1, S_DIGITS digits). */
static unsigned s_index(uint64_t v)
{
	unsigned bucket = 56u - (unsigned)__builtin_clzll(v | 255u);
	unsigned sub = (unsigned)(v >> bucket);

	return ((bucket + 1) << S_HALF_MAG) + sub - (1u << S_HALF_MAG);
}

static uint8_t *s_be(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--)
		*p++ = (uint8_t)(v >> (8 * i));
	return p;
}

/* HdrHistogram's ZigZag LEB128 (values here stay far below 2^56, where it is plain LEB128). */
static uint8_t *s_zigzag(uint8_t *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0); /* no signed shift */

	while (z >= 0x80) {
		*p++ = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	*p++ = (uint8_t)z;
	return p;
}

/* h's counts on HdrHistogram's index into counts[S_MAX_INDEX]; returns the last used + 1. */
static unsigned s_counts(const lst_hist *h, uint64_t *counts)
{
	unsigned top = 0;

	for (unsigned i = 0; i < LST_HIST_NBUCKETS; i++) {
		unsigned k;

		if (!h->buckets[i])
			continue;
		k = s_index(lst_hist_bucket_low(i) + (lst_hist_bucket_width(i) - 1) / 2);
		counts[k] += h->buckets[i];
		top = k + 1 > top ? k + 1 : top;
	}
	if (h->overflow) { /* at the exact max: see the header */
		unsigned k = s_index(h->max);

		counts[k] += h->overflow;
		top = k + 1 > top ? k + 1 : top;
	}
	return top;
}

/* The V2 encoding of h into buf (room for S_HEADER + 10 bytes a count); returns its length. */
static size_t s_encode_v2(const lst_hist *h, uint8_t *buf)
{
	uint64_t *counts = lst_calloc(S_MAX_INDEX, sizeof(*counts));
	unsigned top;
	uint8_t *p = buf + S_HEADER;
	double ratio = 1.0;
	uint64_t ratio_bits, highest = h->max > LST_HIST_MAX_NS ? h->max : LST_HIST_MAX_NS;

	top = s_counts(h, counts);
	for (unsigned i = 0; i < top; i++) {
		unsigned zeros = 0;

		while (i + zeros < top && !counts[i + zeros])
			zeros++;
		if (zeros > 1) {
			p = s_zigzag(p, -(int64_t)zeros);
			i += zeros - 1;
		} else {
			p = s_zigzag(p, (int64_t)counts[i]);
		}
	}
	free(counts);
	memcpy(&ratio_bits, &ratio, sizeof(ratio_bits));
	s_be(s_be(s_be(s_be(s_be(s_be(s_be(buf, S_ENCODING_COOKIE, 4),
				      (uint64_t)(p - buf - S_HEADER), 4),
				 0, 4),
			    S_DIGITS, 4),
		       1, 8),
		  highest, 8),
	     ratio_bits, 8);
	return (size_t)(p - buf);
}

static const char s_b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *s_base64(const uint8_t *in, size_t n)
{
	char *out = lst_calloc(4 * ((n + 2) / 3) + 1, 1), *o = out;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
			     (i + 2 < n ? in[i + 2] : 0);

		*o++ = s_b64[v >> 18 & 63];
		*o++ = s_b64[v >> 12 & 63];
		*o++ = i + 1 < n ? s_b64[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? s_b64[v & 63] : '=';
	}
	return out;
}

char *lst_export_hdr_encode(const lst_hist *h)
{
	size_t cap = S_HEADER + (size_t)S_MAX_INDEX * 10, n;
	uint8_t *raw = lst_calloc(cap, 1);
	uLongf zlen = compressBound((uLong)cap);
	uint8_t *z = lst_calloc(8 + zlen, 1);
	char *out = NULL;

	n = s_encode_v2(h, raw);
	if (compress(z + 8, &zlen, raw, (uLong)n) == Z_OK) {
		s_be(s_be(z, S_COMPRESSION_COOKIE, 4), zlen, 4);
		out = s_base64(z, 8 + zlen);
	}
	free(z);
	free(raw);
	return out;
}

int lst_export_hdr_header(FILE *f, double base_s)
{
	time_t t = (time_t)base_s;
	char when[64];

	strftime(when, sizeof(when), "%a %b %d %H:%M:%S UTC %Y", gmtime(&t));
	fprintf(f, "#[Histogram log format version 1.3]\n");
	fprintf(f, "#[StartTime: %.3f (seconds since epoch), %s]\n", base_s, when);
	fprintf(f, "#[BaseTime: %.3f (seconds since epoch)]\n", base_s);
	fprintf(f, "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		   "\"Interval_Compressed_Histogram\"\n");
	return ferror(f) ? -EIO : 0;
}

int lst_export_hdr_line(FILE *f, const char *tag, double start_s, double length_s,
			const lst_hist *h)
{
	char *enc = lst_export_hdr_encode(h);

	if (!enc)
		return -EIO;
	if (tag)
		fprintf(f, "Tag=%s,", tag);
	fprintf(f, "%.3f,%.3f,%.3f,%s\n", start_s, length_s, (double)h->max / 1e6, enc);
	free(enc);
	return ferror(f) ? -EIO : 0;
}
