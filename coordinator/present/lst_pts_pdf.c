/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PTS report's PDF: the HTML page printed by headless Chromium (`--print-to-pdf`), which
 * lays out the page's print style (A4, one test per page) as a browser prints it, so the PDF
 * and the page cannot differ. Chromium runs with a profile of its own in a temporary folder
 * (removed afterwards), no first-run or background networking, and a timeout.
 */
#include "lst_pts.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "lst_proc.h"
#include "lst_util.h"

#define S_TIMEOUT_S 120

static int s_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

int lst_pts_pdf_write(const char *html, const char *pdf, lst_err *err)
{
	char *chromium = lst_proc_which("chromium"), *url = NULL, *out_arg = NULL, *prof_arg = NULL;
	char real[PATH_MAX], prof[] = "/tmp/lockstep-chromium.XXXXXX", out[4096], last[512];
	struct stat st;
	int rc;

	if (!chromium)
		return lst_err_set(err, -ENOENT,
				   "no chromium in PATH (Debian: chromium): %s not written", pdf);
	if (!realpath(html, real) || !mkdtemp(prof)) {
		rc = lst_err_sys(err, -errno, "cannot print %s to PDF", html);
		free(chromium);
		return rc;
	}
	url = lst_asprintf("file://%s", real);
	out_arg = lst_asprintf("--print-to-pdf=%s", pdf);
	prof_arg = lst_asprintf("--user-data-dir=%s", prof);
	{
		const char *const argv[] = { chromium,
					     "--headless",
					     "--no-sandbox",
					     "--disable-gpu",
					     "--no-first-run",
					     "--disable-background-networking",
					     "--disable-component-update",
					     "--disable-sync",
					     "--disable-default-apps",
					     "--no-pdf-header-footer",
					     prof_arg,
					     out_arg,
					     url,
					     NULL };

		remove(pdf);
		rc = lst_proc_run(NULL, argv, S_TIMEOUT_S, out, sizeof(out));
	}
	nftw(prof, s_rm, 16, FTW_DEPTH | FTW_PHYS);
	if (rc || stat(pdf, &st) || !st.st_size) {
		lst_proc_last_lines(out, last, sizeof(last));
		rc = lst_err_set(err, rc < 0 ? rc : -EIO, "chromium did not print %s to %s: %s%s",
				 html, pdf, rc == -ETIMEDOUT ? "timed out: " : "", last);
	}
	free(url);
	free(out_arg);
	free(prof_arg);
	free(chromium);
	return rc;
}
