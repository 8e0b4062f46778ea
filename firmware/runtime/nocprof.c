/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * nocprof.c - the firmware runtime: console, time, NoC, timer, interrupts.
 *
 * Every function is a thin wrapper around word accesses to the device
 * windows of SPEC section 1; they are kept out of line (noinline) so that
 * profiles attribute console, polling and delay time to a named function.
 */
#include "nocprof.h"

#define RT_API RT_NOINLINE

/* ---- identity ---------------------------------------------------------- */

RT_API unsigned rt_core_id(void)
{
    return rt_mmio_read(RT_SYS_BASE, RT_SYS_CORE_ID);
}

RT_API unsigned rt_num_cores(void)
{
    return rt_mmio_read(RT_SYS_BASE, RT_SYS_NUM_CORES);
}

RT_API unsigned rt_mesh_w(void)
{
    return rt_mmio_read(RT_SYS_BASE, RT_SYS_MESH_W);
}

RT_API unsigned rt_mesh_h(void)
{
    return rt_mmio_read(RT_SYS_BASE, RT_SYS_MESH_H);
}

/* ---- console ----------------------------------------------------------- */

RT_API void rt_putc(char c)
{
    rt_mmio_write(RT_SYS_BASE, RT_SYS_CONSOLE, (uint32_t)(unsigned char)c);
}

RT_API void rt_puts(const char *s)
{
    while (*s)
        rt_putc(*s++);
}

/* Writes the digits of v (base 10 or 16), at least `width` of them. */
__attribute__((noinline, noclone))
static unsigned put_digits(uint32_t v, unsigned base, unsigned width, bool upper)
{
    static const char lower_digits[] = "0123456789abcdef";
    static const char upper_digits[] = "0123456789ABCDEF";
    const char *digits = upper ? upper_digits : lower_digits;
    char buf[12];
    unsigned n = 0;

    do {
        buf[n++] = digits[v % base];
        v /= base;
    } while (v != 0);
    while (n < width && n < sizeof buf)
        buf[n++] = '0';
    for (unsigned i = n; i > 0; i--)
        rt_putc(buf[i - 1]);
    return n;
}

RT_API void rt_put_udec(uint32_t v)
{
    put_digits(v, 10, 1, false);
}

RT_API void rt_put_dec(int32_t v)
{
    if (v < 0) {
        rt_putc('-');
        put_digits(0u - (uint32_t)v, 10, 1, false);
    } else {
        put_digits((uint32_t)v, 10, 1, false);
    }
}

RT_API void rt_put_u64(uint64_t v)
{
    char buf[21];
    unsigned n = 0;

    do {
        buf[n++] = (char)('0' + (unsigned)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n > 0)
        rt_putc(buf[--n]);
}

RT_API void rt_put_hex(uint32_t v)
{
    put_digits(v, 16, 8, false);
}

/* Pads with `fill` so that a field of `len` characters becomes `width`. */
static unsigned put_pad(unsigned len, unsigned width, char fill)
{
    unsigned n = 0;

    while (len + n < width) {
        rt_putc(fill);
        n++;
    }
    return n;
}

/* Number of digits of v in base `base`. */
static unsigned count_digits(uint32_t v, unsigned base)
{
    unsigned n = 1;

    while (v >= base) {
        v /= base;
        n++;
    }
    return n;
}

RT_API int rt_vprintf(const char *fmt, va_list ap)
{
    int out = 0;

    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            rt_putc(*p);
            out++;
            continue;
        }
        bool left = false, zero = false;
        unsigned width = 0;
        for (p++; *p == '-' || *p == '0'; p++) {
            if (*p == '-')
                left = true;
            else
                zero = true;
        }
        while (*p >= '0' && *p <= '9')
            width = width * 10u + (unsigned)(*p++ - '0');
        if (*p == 'l')
            p++;
        if (*p == '\0')
            break;

        char conv = *p;
        switch (conv) {
        case '%':
            rt_putc('%');
            out++;
            break;
        case 'c': {
            char c = (char)va_arg(ap, int);
            unsigned pad = left ? 0 : put_pad(1, width, ' ');
            rt_putc(c);
            pad += left ? put_pad(1, width, ' ') : 0;
            out += (int)(1 + pad);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (s == NULL)
                s = "(null)";
            unsigned len = (unsigned)strlen(s);
            unsigned pad = left ? 0 : put_pad(len, width, ' ');
            rt_puts(s);
            pad += left ? put_pad(len, width, ' ') : 0;
            out += (int)(len + pad);
            break;
        }
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'p': {
            uint32_t v;
            bool neg = false;
            unsigned base = (conv == 'x' || conv == 'X' || conv == 'p') ? 16u : 10u;
            if (conv == 'd' || conv == 'i') {
                int32_t sv = va_arg(ap, int32_t);
                neg = sv < 0;
                v = neg ? 0u - (uint32_t)sv : (uint32_t)sv;
            } else if (conv == 'p') {
                v = (uint32_t)(uintptr_t)va_arg(ap, void *);
                zero = true;
                if (width < 8)
                    width = 8;
            } else {
                v = va_arg(ap, uint32_t);
            }
            unsigned len = count_digits(v, base) + (neg ? 1u : 0u);
            unsigned pad = 0;
            if (!left && !zero)
                pad += put_pad(len, width, ' ');
            if (neg)
                rt_putc('-');
            if (!left && zero)
                pad += put_pad(len, width, '0');
            put_digits(v, base, 1, conv == 'X');
            if (left)
                pad += put_pad(len, width, ' ');
            out += (int)(len + pad);
            break;
        }
        default:
            rt_putc('%');
            rt_putc('?');
            out += 2;
            break;
        }
    }
    return out;
}

RT_API int rt_printf(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    int n = rt_vprintf(fmt, ap);
    va_end(ap);
    return n;
}

/* ---- time -------------------------------------------------------------- */

RT_API uint64_t rt_cycles(void)
{
    uint32_t lo = rt_mmio_read(RT_SYS_BASE, RT_SYS_CYCLE_LO);  /* latches HI */
    uint32_t hi = rt_mmio_read(RT_SYS_BASE, RT_SYS_CYCLE_HI);
    return ((uint64_t)hi << 32) | lo;
}

RT_API uint32_t rt_cycles32(void)
{
    return rt_mmio_read(RT_SYS_BASE, RT_SYS_CYCLE_LO);
}

RT_API void rt_delay(uint32_t cycles)
{
    uint64_t start = rt_cycles();

    while (rt_cycles() - start < cycles)
        ;
}

/* ---- exit -------------------------------------------------------------- */

RT_API void rt_exit(int code)
{
    rt_mmio_write(RT_SYS_BASE, RT_SYS_EXIT, (uint32_t)code);
    for (;;)
        ;   /* not reached: EXIT stops the core */
}

/* ---- profiling region ----------------------------------------------------- */

RT_API void rt_prof_start(void)
{
    rt_mmio_write(RT_SYS_BASE, RT_SYS_PROF_CTRL, 1u);
}

RT_API void rt_prof_stop(void)
{
    rt_mmio_write(RT_SYS_BASE, RT_SYS_PROF_CTRL, 0u);
}

/* ---- NoC ---------------------------------------------------------------- */

RT_API bool rt_tx_ready(void)
{
    return (rt_mmio_read(RT_NI_BASE, RT_NI_TX_STATUS) & 1u) != 0;
}

RT_API void rt_send(unsigned dst, const uint32_t *w, unsigned n)
{
    if (n == 0)
        return;
    while ((rt_mmio_read(RT_NI_BASE, RT_NI_TX_STATUS) & 1u) == 0)
        ;
    rt_mmio_write(RT_NI_BASE, RT_NI_TX_DEST, dst);
    for (unsigned i = 0; i < n; i++)
        rt_mmio_write(RT_NI_BASE, RT_NI_TX_DATA, w[i]);
    rt_mmio_write(RT_NI_BASE, RT_NI_TX_SEND, 1u);
}

RT_API unsigned rt_rx_count(void)
{
    return rt_mmio_read(RT_NI_BASE, RT_NI_RX_COUNT);
}

/* Pops the head packet (one is waiting); see rt_recv. */
static unsigned rx_take(unsigned *src, uint32_t *buf, unsigned max)
{
    unsigned s = rt_mmio_read(RT_NI_BASE, RT_NI_RX_SRC);
    unsigned len = rt_mmio_read(RT_NI_BASE, RT_NI_RX_LEN);
    unsigned n = len < max ? len : max;

    for (unsigned i = 0; i < n; i++)
        buf[i] = rt_mmio_read(RT_NI_BASE, RT_NI_RX_DATA);
    if (n < len)
        rt_mmio_write(RT_NI_BASE, RT_NI_RX_DROP, 1u);
    if (src != NULL)
        *src = s;
    return n;
}

RT_API unsigned rt_recv(unsigned *src, uint32_t *buf, unsigned max)
{
    while (rt_mmio_read(RT_NI_BASE, RT_NI_RX_COUNT) == 0)
        ;
    return rx_take(src, buf, max);
}

RT_API bool rt_try_recv(unsigned *src, uint32_t *buf, unsigned max, unsigned *n)
{
    if (rt_mmio_read(RT_NI_BASE, RT_NI_RX_COUNT) == 0)
        return false;
    unsigned got = rx_take(src, buf, max);
    if (n != NULL)
        *n = got;
    return true;
}

/* ---- timer -------------------------------------------------------------- */

RT_API void rt_timer_start(uint32_t period, bool periodic)
{
    rt_mmio_write(RT_TIMER_BASE, RT_TIMER_CTRL, 0);
    rt_mmio_write(RT_TIMER_BASE, RT_TIMER_PERIOD, period);
    rt_mmio_write(RT_TIMER_BASE, RT_TIMER_CTRL,
                  RT_TIMER_ENABLE | RT_TIMER_IRQ | (periodic ? RT_TIMER_PERIODIC : 0));
}

RT_API void rt_timer_stop(void)
{
    rt_mmio_write(RT_TIMER_BASE, RT_TIMER_CTRL, 0);
}

RT_API void rt_timer_ack(void)
{
    rt_mmio_write(RT_TIMER_BASE, RT_TIMER_ACK, 1u);
}

RT_API uint32_t rt_timer_remain(void)
{
    return rt_mmio_read(RT_TIMER_BASE, RT_TIMER_REMAIN);
}

/* ---- interrupts --------------------------------------------------------- */

#define ST_IE   0x00000001u
#define ST_IM2  0x00000400u

static rt_irq_handler_t irq_handlers[RT_IRQ_COUNT];

RT_API void rt_irq_set_handler(unsigned bit, rt_irq_handler_t fn)
{
    if (bit < RT_IRQ_COUNT)
        irq_handlers[bit] = fn;
}

RT_API void rt_irq_enable(uint32_t mask)
{
    uint32_t en = rt_mmio_read(RT_IRQC_BASE, RT_IRQC_ENABLE);
    rt_mmio_write(RT_IRQC_BASE, RT_IRQC_ENABLE, en | mask);
}

RT_API void rt_irq_disable(uint32_t mask)
{
    uint32_t en = rt_mmio_read(RT_IRQC_BASE, RT_IRQC_ENABLE);
    rt_mmio_write(RT_IRQC_BASE, RT_IRQC_ENABLE, en & ~mask);
}

RT_API uint32_t rt_irq_pending(void)
{
    return rt_mmio_read(RT_IRQC_BASE, RT_IRQC_PENDING);
}

static inline uint32_t status_read(void)
{
    uint32_t st;
    __asm__ volatile("mfc0 %0, $12" : "=r"(st));
    return st;
}

static inline void status_write(uint32_t st)
{
    __asm__ volatile("mtc0 %0, $12\n\tehb" : : "r"(st) : "memory");
}

RT_API void rt_interrupts_on(void)
{
    status_write(status_read() | ST_IE | ST_IM2);
}

RT_API void rt_interrupts_off(void)
{
    status_write(status_read() & ~ST_IE);
}

RT_API void rt_wait(void)
{
    __asm__ volatile("wait" : : : "memory");
}

/* ---- CP0 Count / Compare / Cause --------------------------------------- */

#define ST_IM7     0x00008000u
#define CAUSE_IP2  0x00000400u
#define CAUSE_IP7  0x00008000u

static rt_irq_handler_t cp0_timer_handler;

RT_API uint32_t rt_cp0_count(void)
{
    uint32_t v;
    __asm__ volatile("mfc0 %0, $9" : "=r"(v));
    return v;
}

RT_API void rt_cp0_set_count(uint32_t v)
{
    __asm__ volatile("mtc0 %0, $9\n\tehb" : : "r"(v) : "memory");
}

RT_API uint32_t rt_cp0_compare(void)
{
    uint32_t v;
    __asm__ volatile("mfc0 %0, $11" : "=r"(v));
    return v;
}

RT_API void rt_cp0_set_compare(uint32_t v)
{
    __asm__ volatile("mtc0 %0, $11\n\tehb" : : "r"(v) : "memory");
}

RT_API uint32_t rt_cp0_cause(void)
{
    uint32_t v;
    __asm__ volatile("mfc0 %0, $13" : "=r"(v) : : "memory");
    return v;
}

RT_API void rt_cp0_timer_set_handler(rt_irq_handler_t fn)
{
    cp0_timer_handler = fn;
}

RT_API void rt_cp0_timer_on(void)
{
    status_write(status_read() | ST_IM7);
}

RT_API void rt_cp0_timer_off(void)
{
    status_write(status_read() & ~ST_IM7);
}

RT_API void rt_irq_dispatch(void)
{
    uint32_t cause = rt_cp0_cause();
    if (cause & CAUSE_IP7) {
        if (cp0_timer_handler != NULL)
            cp0_timer_handler();
        else
            rt_cp0_timer_off();
    }
    if ((cause & CAUSE_IP2) == 0)
        return;
    uint32_t active = rt_mmio_read(RT_IRQC_BASE, RT_IRQC_PENDING)
                    & rt_mmio_read(RT_IRQC_BASE, RT_IRQC_ENABLE);

    for (unsigned bit = 0; bit < RT_IRQ_COUNT; bit++) {
        if ((active & RT_IRQ_BIT(bit)) == 0)
            continue;
        if (irq_handlers[bit] != NULL)
            irq_handlers[bit]();
        else
            rt_irq_disable(RT_IRQ_BIT(bit));
    }
}
