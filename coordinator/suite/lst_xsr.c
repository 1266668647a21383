/* SPDX-License-Identifier: Apache-2.0 */
/* XSR's baseline and recovery (see lst_xsr.h). */
#include "lst_xsr.h"

double lst_xsr_baseline(const double *seg1, size_t n1, size_t window)
{
	size_t from = n1 > window ? n1 - window : 0;
	double sum = 0;

	for (size_t i = from; i < n1; i++)
		sum += seg1[i];
	return n1 > from ? sum / (double)(n1 - from) : 0;
}

size_t lst_xsr_recovered(double baseline, const double *seg3, size_t n3, double tolerance_pct)
{
	double floor = (1.0 - tolerance_pct / 100.0) * baseline;

	for (size_t i = 0; i < n3; i++)
		if (seg3[i] >= floor)
			return i;
	return n3;
}
