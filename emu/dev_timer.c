// SPDX-License-Identifier: GPL-2.0-or-later
/* dev_timer.c — TIMER: a one-shot or periodic counter on the core clock
 * that raises IRQC line NP_IRQ_TIMER while its interrupt is pending. */
#include "emu/dev.h"

#include "nocprof/platform.h"

void dev_timer_init(TimerDev *t, IrqLine irq)
{
    t->expiry = UINT64_MAX;
    t->irq = irq;
}

void dev_timer_fire(TimerDev *t, uint64_t clock)
{
    if (t->ctrl & NP_TIMER_IRQ)
        t->irq.set(t->irq.opaque, t->irq.line, true);
    if ((t->ctrl & NP_TIMER_PERIODIC) && t->period) {
        /* every expiry up to clock at once: the first after it is next
         * (closed form, whatever the period: a period of 1 over 10^10
         * idle cycles is one step, not 10^10) */
        if (t->expiry <= clock)
            t->expiry += ((clock - t->expiry) / t->period + 1) * t->period;
    } else {
        t->ctrl &= ~NP_TIMER_ENABLE;
        t->expiry = UINT64_MAX;
    }
}

uint64_t dev_timer_irq_cycle(const TimerDev *t)
{
    return (t->ctrl & NP_TIMER_IRQ) ? t->expiry : UINT64_MAX;
}

/* An access at `now` comes after every expiry at or before it: the core
 * fires the timer only at block boundaries, so an expiry earlier in the
 * accessing block has not been seen yet. */
static void timer_catch_up(TimerDev *t, uint64_t now)
{
    if (t->expiry <= now)
        dev_timer_fire(t, now);
}

static void timer_start(TimerDev *t, uint64_t now)
{
    t->expiry = (t->ctrl & NP_TIMER_ENABLE) && t->period ? now + t->period : UINT64_MAX;
}

static bool timer_read(void *opaque, DevAccess *a, uint32_t *v)
{
    TimerDev *t = opaque;
    timer_catch_up(t, a->now);
    switch (a->reg) {
    case NP_TIMER_CTRL: *v = t->ctrl; return true;
    case NP_TIMER_PERIOD: *v = t->period; return true;
    case NP_TIMER_REMAIN:
        *v = t->expiry == UINT64_MAX ? 0 : (uint32_t)MIN(t->expiry - a->now, (uint64_t)UINT32_MAX);
        return true;
    case NP_TIMER_ACK: dev_wrong_direction(a, "TIMER", "ACK", false); return true;
    default: return false;
    }
}

static bool timer_write(void *opaque, DevAccess *a, uint32_t v)
{
    TimerDev *t = opaque;
    timer_catch_up(t, a->now);
    switch (a->reg) {
    case NP_TIMER_CTRL:
        t->ctrl = v & 7u;
        timer_start(t, a->now);
        return true;
    case NP_TIMER_PERIOD:
        t->period = v;
        if (t->ctrl & NP_TIMER_ENABLE)
            timer_start(t, a->now);
        return true;
    case NP_TIMER_ACK:
        t->irq.set(t->irq.opaque, t->irq.line, false);
        return true;
    case NP_TIMER_REMAIN: dev_wrong_direction(a, "TIMER", "REMAIN", true); return true;
    default:
        return false;
    }
}

const DevOps dev_timer_ops = { .read = timer_read, .write = timer_write };
