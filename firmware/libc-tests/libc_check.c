/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * libc_check.c - exercises the firmware C library through its standard
 * headers only.  The same file is built for the host (-DNOCPROF_HOST, glibc)
 * by tests/e2e/test_libc.py, and the common part of the output must be the
 * same byte for byte: printf conversions and the math functions are checked
 * against the host's printf and libm, to the last printed digit.
 *
 * Output: one line per check.  The last argument selects the ending (the
 * core id on the platform, argv[1] on the host):
 *   0: return 0 from main    1: failed assert (134 after the message)
 *   2: exit(42)              3: abort() (134)
 * Lines after "== target only ==" (heap layout) are not printed on the host.
 */
#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sgn(int v)
{
    return (v > 0) - (v < 0);
}

static void check_string(void)
{
    char buf[64];
    char tok[] = "alpha, beta;;gamma ,delta";
    const char *sep = " ,;";
    char *t;

    printf("strlen %u %u\n", (unsigned)strlen(""), (unsigned)strlen("nocprof"));
    printf("strchr %s|%s|%d\n", strchr("mississippi", 's'), strrchr("mississippi", 's'),
           strchr("abc", 'z') == NULL);
    printf("strstr %s|%d|%s\n", strstr("the quick brown fox", "brown"),
           strstr("abc", "abd") == NULL, strstr("abc", ""));
    printf("strspn %u %u %s\n", (unsigned)strspn("123abc", "0123456789"),
           (unsigned)strcspn("hello, world", ",!"), strpbrk("find-the_sep", "_-"));
    printf("cmp %d %d %d %d %d %d\n", sgn(strcmp("abc", "abd")), sgn(strcmp("b", "a")),
           sgn(strcmp("same", "same")), sgn(strncmp("abcdef", "abcxyz", 3)),
           sgn(strncmp("abcdef", "abcxyz", 4)), sgn(memcmp("\x01\xff", "\x01\x00", 2)));
    strcpy(buf, "foo");
    strcat(buf, "bar");
    strncat(buf, "bazqux" + 0, 3);
    printf("cat %s %u\n", buf, (unsigned)strlen(buf));
    memset(buf, 'x', sizeof buf);
    strncpy(buf, "ab", 5);
    printf("strncpy %d %d %d %d %c\n", buf[0], buf[2], buf[3], buf[4], buf[5]);
    strcpy(buf, "0123456789");
    memmove(buf + 2, buf, 5);
    printf("memmove %s\n", buf);
    memmove(buf, buf + 3, 6);
    printf("memmove %s\n", buf);
    memcpy(buf, "copy", 5);
    printf("memcpy %s %s\n", buf, (const char *)memchr("find#me", '#', 7));
    printf("strtok");
    for (t = strtok(tok, sep); t != NULL; t = strtok(NULL, sep))
        printf(" [%s]", t);
    printf("\n");
}

static void check_ctype(void)
{
    static const struct {
        const char *name;
        int (*fn)(int);
    } cls[] = {
        { "alnum", isalnum }, { "alpha", isalpha }, { "cntrl", iscntrl },
        { "digit", isdigit }, { "graph", isgraph }, { "lower", islower },
        { "print", isprint }, { "punct", ispunct }, { "space", isspace },
        { "upper", isupper }, { "xdigit", isxdigit },
    };

    for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++) {
        uint32_t h = 2166136261u;   /* FNV-1a over the member set of 0..255 */
        int n = 0;

        for (int c = 0; c < 256; c++) {
            if (cls[i].fn(c)) {
                h = (h ^ (uint32_t)c) * 16777619u;
                n++;
            }
        }
        printf("is%s %d %08x\n", cls[i].name, n, (unsigned)h);
    }
    printf("case %c%c%c%c %d\n", toupper('a'), toupper('Z'), tolower('Q'), tolower('7'),
           toupper(EOF) == EOF);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

static void check_stdlib(void)
{
    char *end;
    int v[] = { 42, -7, 13, 0, 99, -100, 13, 5, 64, 1 };
    size_t nv = sizeof v / sizeof v[0];
    int key = 64;
    int *hit;
    div_t d = div(-17, 5);
    ldiv_t ld = ldiv(1000000007L, 1000L);
    unsigned seq1[4], seq2[4];
    int in_range = 1;

    long l = strtol("  -12345xyz", &end, 10);
    printf("strtol %ld [%s] %ld %ld %ld\n", l, end, strtol("0x1F", NULL, 16),
           strtol("0777", NULL, 0), strtol("z", NULL, 36));
    printf("strtol-range %d %d\n", strtol("99999999999999999999", NULL, 10) == LONG_MAX,
           strtol("-99999999999999999999", NULL, 10) == LONG_MIN);
    unsigned long ul = strtoul("deadBEEF", &end, 16);
    printf("strtoul %lu %lu %d %d\n", strtoul("4294967295", NULL, 10), ul, *end == '\0',
           atoi("  -2147483648"));
    printf("abs %d %ld %d %d %ld %ld\n", abs(-5), labs(-70000L), d.quot, d.rem, ld.quot, ld.rem);
    qsort(v, nv, sizeof v[0], cmp_int);
    printf("qsort");
    for (size_t i = 0; i < nv; i++)
        printf(" %d", v[i]);
    hit = bsearch(&key, v, nv, sizeof v[0], cmp_int);
    key = 6;
    printf("\nbsearch %d %d\n", hit ? (int)(hit - v) : -1,
           bsearch(&key, v, nv, sizeof v[0], cmp_int) == NULL);
    srand(12345u);
    for (int i = 0; i < 4; i++)
        seq1[i] = (unsigned)rand();
    srand(12345u);
    for (int i = 0; i < 4; i++)
        seq2[i] = (unsigned)rand();
    for (int i = 0; i < 1000; i++) {
        int r = rand();
        if (r < 0 || r > RAND_MAX)
            in_range = 0;
    }
    printf("rand %d %d %d\n", memcmp(seq1, seq2, sizeof seq1) == 0, in_range, RAND_MAX >= 32767);
}

static void check_heap(void)
{
    unsigned char *p[16];
    int ok = 1;

    for (int i = 0; i < 16; i++) {
        p[i] = malloc((size_t)(i + 1) * 100u);
        if (p[i] == NULL)
            ok = 0;
        else
            memset(p[i], i, (size_t)(i + 1) * 100u);
    }
    for (int i = 0; i < 16 && ok; i++) {
        for (size_t j = 0; j < (size_t)(i + 1) * 100u; j++)
            if (p[i][j] != i)
                ok = 0;
    }
    for (int i = 0; i < 16; i += 2)
        free(p[i]);
    p[0] = calloc(250, 4);
    for (int i = 0; i < 1000 && p[0]; i++)
        if (p[0][i] != 0)
            ok = 0;
    p[1] = realloc(p[1], 5000);
    for (int j = 0; j < 200 && p[1]; j++)
        if (p[1][j] != 1)
            ok = 0;
    char *s = malloc(32);
    if (s)
        strcpy(s, "heap string");
    printf("heap %d %s\n", ok && p[0] && p[1], s ? s : "(null)");
    free(s);
    free(p[0]);
    free(p[1]);
    for (int i = 3; i < 16; i += 2)
        free(p[i]);
}

static void check_printf(void)
{
    char buf[32];
    int n;

    printf("int [%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%u]\n", -42, 42, 42, 42, -42, 7, 7,
           3000000000u);
    printf("hex [%x] [%X] [%#x] [%08x] [%o] [%#o] [%c] [%%]\n", 0xbeefu, 0xbeefu, 255u, 0xabcu,
           8u, 8u, 'Q');
    printf("long [%ld] [%lu] [%lld] [%llu] [%llx] [%hd] [%hhu] [%zu]\n", -2147483647L - 1,
           4294967295ul, -9007199254740993LL, 18446744073709551615ull, 0x123456789abcdefULL,
           (short)-32768, (unsigned char)300, sizeof(double));
    printf("str [%s] [%10s] [%-10s] [%.3s] [%*d] [%-*d]\n", "abc", "right", "left",
           "truncate", 6, 12, 6, 12);
    printf("f [%f] [%.2f] [%10.3f] [%-10.1f] [%+.0f] [%.10f] [%f]\n", 3.14159265358979,
           2.675, -1.0 / 3.0, 2.5, 2.5, 1e-7, 123456789.125);
    printf("e [%e] [%.3e] [%E] [%e] [%.0e] [%e]\n", 12345.6789, 0.000123456, 6.02214076e23,
           -1e-300, 5e10, 0.0);
    printf("g [%g] [%g] [%g] [%g] [%.3g] [%G] [%g] [%#g]\n", 100000.0, 1000000.0, 1e-4, 1e-5,
           3.14159, 2.5e-20, 123.456, 1.0);
    printf("special [%f] [%f] [%e] [%g] [%.1f]\n", INFINITY, -INFINITY, (double)INFINITY, -0.0,
           0.05);
    printf("float [%f] [%g] [%e]\n", (double)1.1f, (double)3.4028235e38f, (double)1e-10f);
    n = snprintf(buf, 8, "%s-%d", "truncated", 12345);
    printf("snprintf %d [%s]\n", n, buf);
    n = sprintf(buf, "%05.1f|%x", 9.96, 48879u);
    printf("sprintf %d [%s]\n", n, buf);
    printf("%s\n", "long line: 0123456789012345678901234567890123456789012345678901234567890123456789"
           "0123456789012345678901234567890123456789012345678901234567890123456789"
           "0123456789012345678901234567890123456789012345678901234567890123456789"
           "0123456789012345678901234567890123456789012345678901234567890123456789 end");
    puts("puts line");
    putchar('p');
    putchar('\n');
}

/* Compared with the host's libm (glibc).  sqrt, floor, ceil, fmod, fabs
 * (exact operations) and exp, log, pow (newlib's current code, the Arm
 * optimized routines glibc uses too) are printed with 17 significant digits,
 * i.e. every bit.  log10, sin, cos, tan, atan and atan2 are newlib's fdlibm
 * (error < 1 ulp, glibc's are correctly rounded): printed with DBL_DIG = 15
 * digits.  Every float function is printed with 9 digits (every bit). */
static void check_math(void)
{
    static const double x[] = { 0.5, 1.0, 2.0, 3.14159265358979, 10.0, 0.1, 123.456 };

    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) {
        double v = x[i];
        float f = (float)v;

        printf("m %g: %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", v, sqrt(v), exp(v),
               log(v), pow(v, 1.7), pow(-v, 3.0), fmod(v * 7.3, 1.1), floor(-v), ceil(v));
        printf("m %g: %.15g %.15g %.15g %.15g %.15g %.15g\n", v, log10(v), sin(v), cos(v),
               tan(v), atan(v), atan2(v, -1.25));
        printf("mf %g: %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", v, (double)sqrtf(f), (double)expf(f),
               (double)logf(f), (double)log10f(f), (double)sinf(f), (double)cosf(f),
               (double)tanf(f));
        printf("mf %g: %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", v, (double)atanf(f),
               (double)atan2f(f, -1.5f), (double)powf(f, 1.7f), (double)fmodf(f * 7.3f, 1.1f),
               (double)floorf(-f), (double)ceilf(f), (double)fabsf(-f));
    }
    printf("m edge %g %g %g %g %d %d\n", fabs(-0.0), sqrt(0.0), exp(0.0), log(1.0),
           isnan(sqrt(-1.0)) != 0, isinf(log(0.0)) != 0);
}

/* The compiler helpers (libgcc2.c, built -mno-abicalls into libnocprof.a):
 * 64-bit division and modulo (__udivdi3 __divdi3 __umoddi3 __moddi3) on
 * edge operands, and the int64 <-> double/float conversions (__floatdidf
 * __floatundidf __fixdfdi __fixunsdfdi __floatdisf __fixsfdi ...) and
 * __popcountdi2, against the host's native 64-bit instructions.  Operands
 * are volatile so that nothing is folded at compile time; results are
 * printed in hex (printf's %llx does not divide). */
static volatile uint64_t u64v[] = {
    0, 1, 2, 3, 7, 10, 0xffffffffu, 0x100000000ull, 0x100000001ull, 0x7fffffffffffffffull,
    0x8000000000000000ull, 0x8000000000000001ull, 0xfffffffffffffffeull, 0xffffffffffffffffull,
    0x123456789abcdef0ull, 0x00000003b9aca000ull, 0xfedcba9876543210ull, 0x0000000100000000ull - 3
};

static void check_int64(void)
{
    const size_t n = sizeof u64v / sizeof u64v[0];
    unsigned bad_sign = 0;

    for (size_t i = 0; i < n; i++) {
        uint64_t a = u64v[i];
        int64_t sa = (int64_t)a;

        printf("i64 %llx:", (unsigned long long)a);
        for (size_t j = 0; j < n; j++) {
            uint64_t b = u64v[j];
            int64_t sb = (int64_t)b;

            if (b == 0)
                continue;
            printf(" %llx/%llx", (unsigned long long)(a / b), (unsigned long long)(a % b));
            if (!(sa == INT64_MIN && sb == -1))  /* the one overflowing signed pair */
                printf(",%llx/%llx", (unsigned long long)(sa / sb), (unsigned long long)(sa % sb));
            /* C99: truncation toward zero, (a/b)*b + a%b == a */
            if (!(sa == INT64_MIN && sb == -1) && (sa / sb) * sb + sa % sb != sa)
                bad_sign++;
        }
        printf("\n");
        printf("i64c %llx: %.17g %.17g %.9g %.9g %llx %llx %d\n", (unsigned long long)a,
               (double)sa, (double)a, (double)(float)sa, (double)(float)a,
               (unsigned long long)(int64_t)((double)sa / 3.0),
               (unsigned long long)(uint64_t)((double)a / 3.0), __builtin_popcountll(a));
    }
    printf("i64 identity bad=%u\n", bad_sign);
}

static void check_assert_ok(int mode)
{
    assert(mode >= 0);
    printf("assert passed\n");
}

#ifndef NOCPROF_HOST
extern char _end[];
extern uintptr_t __np_stack_top;
extern const size_t np_stack_reserve;

/* The heap lies between _end and the stack reserve, and exhaustion gives
 * NULL (not a crash); freed memory is reused. */
static void check_heap_layout(void)
{
    uintptr_t lo = (uintptr_t)_end, hi = __np_stack_top - np_stack_reserve;
    uintptr_t first = 0, last = 0;
    size_t total = 0;
    void *p, *q;

    printf("== target only ==\n");
    while ((p = malloc(4096)) != NULL) {
        if (first == 0)
            first = (uintptr_t)p;
        last = (uintptr_t)p + 4096;
        total += 4096;
    }
    printf("heap exhausted ok=%d inside=%d\n", total > 0,
           first >= lo && last <= hi);
    printf("heap big alloc null=%d\n", malloc(0x7fffffff) == NULL);
    free((void *)first);
    q = malloc(4000);
    printf("heap reuse=%d\n", (uintptr_t)q >= first && (uintptr_t)q + 4000 <= first + 4096);
}
#endif

static int ending(int mode)
{
    check_assert_ok(mode);
    if (mode == 1)
        assert(mode == 0);      /* LIBC-ASSERT */
    if (mode == 2)
        exit(42);
    if (mode == 3)
        abort();
    printf("return 0\n");
    return 0;
}

static int run(int mode)
{
    check_string();
    check_ctype();
    check_stdlib();
    check_heap();
    check_printf();
    check_math();
    check_int64();
#ifndef NOCPROF_HOST
    check_heap_layout();
#endif
    return ending(mode);
}

#ifdef NOCPROF_HOST
int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);   /* like the console: abort loses nothing */
    return run(argc > 1 ? atoi(argv[1]) : 0);
}
#else
int main(unsigned core, unsigned ncores)
{
    (void)ncores;
    return run((int)core);
}
#endif
