// Copyright (c) 2026 The equix authors
// SPDX-License-Identifier: BSD-3-Clause
//
// A C++ client of the installed headers (hashwx.h too), built by installcheck with
// -std=c++11 -Wall -Wextra -Werror -pedantic: the README's calls must
// compile as they are written in C (the flag operators of equix.h), and
// give the reference's results.
#include <hashx.h>
#include <hashwx.h>
#include <equix.h>
#include <equix_pow.h>

#include <cstdio>
#include <cstring>

int main()
{
    // hashx-named.txt: "This is a test\0", input 0.
    static const char seed[] = "This is a test";
    static const unsigned char want[8] = {0x2b, 0x2f, 0x54, 0x56,
                                          0x7d, 0xcb, 0xea, 0x98};
    hashx_ctx *h = hashx_alloc(HASHX_TRY_COMPILE);
    unsigned char hash[HASHX_SIZE];

    if (h == NULL || hashx_make(h, seed, sizeof seed) != HASHX_OK ||
        hashx_exec(h, 0, hash) != HASHX_OK ||
        std::memcmp(hash, want, HASHX_SIZE < 8 ? HASHX_SIZE : 8) != 0) {
        std::puts("FAIL: hashx");
        return 1;
    }
    hashx_free(h);

    // tevador's libhashwx's hash (tests/clients/hashwx_client.c's seed).
    uint8_t wx_seed[HASHWX_SEED_SIZE] = "a seed makes one hash function";
    hashwx_ctx *wx = hashwx_alloc(HASHWX_COMPILED);
    if (wx == HASHWX_NOTSUPP)
        wx = hashwx_alloc(HASHWX_INTERPRETED);
    if (wx == NULL) {
        std::puts("FAIL: hashwx_alloc");
        return 1;
    }
    hashwx_make(wx, wx_seed);
    if (hashwx_exec(wx, 123456789) != UINT64_C(0x2dae5f1b18bdd6db)) {
        std::puts("FAIL: hashwx");
        return 1;
    }
    hashwx_free(wx);

    equix_ctx_flags flags = EQUIX_CTX_SOLVE;
    flags |= EQUIX_CTX_TRY_COMPILE;
    equix_ctx *ctx = equix_alloc(EQUIX_CTX_SOLVE | EQUIX_CTX_TRY_COMPILE);
    equix_ctx *ctx2 = equix_alloc(flags);
    equix_solutions_buffer sols;

    if (ctx == NULL || ctx2 == NULL ||
        equix_solve(ctx, seed, sizeof seed, &sols) != EQUIX_OK ||
        sols.count == 0 ||
        equix_verify(ctx2, seed, sizeof seed, &sols.sols[0]) != EQUIX_OK) {
        std::puts("FAIL: equix");
        return 1;
    }
    // equix-named.txt: the first solution of this challenge.
    if (sols.sols[0].idx[0] != 0x09da || sols.sols[0].idx[7] != 0xe23c) {
        std::puts("FAIL: equix solution");
        return 1;
    }
    std::printf("C++ client: hash %02x%02x..., %u solution(s), first "
                "verifies; %s (%s)\n",
                hash[0], hash[1], sols.count,
                equix_pow_result_string(EQUIX_POW_OK),
                equix_version_string());
    equix_free(ctx);
    equix_free(ctx2);
    return 0;
}
