/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef DB_GROW_H
#define DB_GROW_H
/*
 * Arrays that grow by doubling, written once:
 *
 *   if (GROW(arr, n, cap, 16)) return -ENOMEM;   room for arr[n]; cap (a size_t) kept
 *   if (GROW_POW2(arr, n, 16)) return -ENOMEM;   the same with no cap: it is implied by
 *                                                the count (first, then the next power of
 *                                                two), for structs that keep none
 *
 * Call either before adding element n (n elements in use). When the array is full it is
 * reallocated to twice its size (first elements the first time); on failure, -ENOMEM
 * with the array and cap as they were (still valid, still the caller's to free).
 * Growing may move the array: pointers into it are good until the next growth.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* *arrp (any object pointer, by address) reallocated to ncap elements of elem bytes. */
static inline int grow_to(void *arrp, size_t elem, size_t ncap)
{
	void *p;

	if (ncap > SIZE_MAX / elem)
		return -ENOMEM;
	memcpy(&p, arrp, sizeof(p));
	p = realloc(p, ncap * elem);
	if (!p)
		return -ENOMEM;
	memcpy(arrp, &p, sizeof(p));
	return 0;
}

static inline int grow_cap(void *arrp, size_t elem, size_t n, size_t *cap, size_t first)
{
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : first;
	if (ncap <= n || grow_to(arrp, elem, ncap))
		return -ENOMEM;
	*cap = ncap;
	return 0;
}

/* first: a power of two. Full at 0, and at every power of two from first on. */
static inline int grow_pow2(void *arrp, size_t elem, size_t n, size_t first)
{
	if (n != 0 && (n < first || (n & (n - 1))))
		return 0;
	return grow_to(arrp, elem, n ? 2 * n : first);
}

#define GROW(arr, n, cap, first) grow_cap(&(arr), sizeof(*(arr)), (n), &(cap), (first))
#define GROW_POW2(arr, n, first) grow_pow2(&(arr), sizeof(*(arr)), (n), (first))

#endif
