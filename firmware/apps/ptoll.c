/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * ptoll.c - the Turbo Profiler "toll road" demo (route66 / highway80) as
 * NoC firmware.
 *
 * Two routines drive a car over a number of miles.  route66() is the slow
 * old road: every mile costs ROUTE66_MILE_DELAY cycles of waiting (a
 * busy-wait on the cycle counter, rt_delay) plus a little toll arithmetic;
 * highway80() is fast: HIGHWAY80_STRETCH_DELAY cycles per 10-mile stretch.
 * In the profile the time shows up under rt_delay/rt_cycles called from
 * route66 and highway80, in the proportion of their delays.
 *
 * Core 0 is the dispatcher: it hands PTOLL_TRIPS trips {id, road, miles} to
 * cores 1..n-1 (at most 15) round-robin, at most PTOLL_WINDOW unanswered
 * per worker,
 * collects {id, road, toll} replies, then sends every worker a stop message
 * and collects {route66 legs, highway80 legs} from each.  It recomputes
 * every toll with toll_for() (no delays) and checks tolls and leg counts.
 * With one core, core 0 drives the trips itself.  Cores exit 0 when right.
 *
 * Output (core 0): one line per trip in trip order, then
 * "ptoll: 12 trips, 8 on route66, 4 on highway80, toll 12345 ok".
 */
#include "nocprof.h"

#define PTOLL_TRIPS               12u
#define PTOLL_WINDOW              2u
#define PTOLL_MAX_WORKERS         15u
#define ROUTE66                   0u
#define HIGHWAY80                 1u
#define ROUTE66_MILE_DELAY        300u
#define HIGHWAY80_STRETCH_DELAY   200u
#define MSG_TRIP                  0x7121u
#define MSG_STOP                  0x5709u
#define MSG_DONE                  0xd09eu

static const char *const road_names[2] = { "route66", "highway80" };

/* Trip i: every third trip takes highway80; miles vary per trip. */
static unsigned trip_road(unsigned i)
{
    return i % 3u == 2u ? HIGHWAY80 : ROUTE66;
}

static unsigned trip_miles(unsigned i)
{
    return 20u + (i * 37u) % 60u;
}

/* The toll without driving: what route66/highway80 must return. */
static uint32_t toll_for(unsigned road, unsigned miles)
{
    uint32_t toll = 0;

    if (road == ROUTE66) {
        for (unsigned m = 1; m <= miles; m++)
            toll += 3u + (m & 1u);
    } else {
        for (unsigned s = 0; s < miles; s += 10u)
            toll += 25u;
    }
    return toll;
}

RT_NOINLINE uint32_t route66(unsigned miles)
{
    uint32_t toll = 0;

    for (unsigned m = 1; m <= miles; m++) {
        rt_delay(ROUTE66_MILE_DELAY);
        toll += 3u + (m & 1u);
    }
    return toll;
}

RT_NOINLINE uint32_t highway80(unsigned miles)
{
    uint32_t toll = 0;

    for (unsigned s = 0; s < miles; s += 10u) {
        rt_delay(HIGHWAY80_STRETCH_DELAY);
        toll += 25u;
    }
    return toll;
}

static uint32_t drive(unsigned road, unsigned miles)
{
    return road == ROUTE66 ? route66(miles) : highway80(miles);
}

/* Worker: run legs until the stop message, then report the leg counts. */
static int worker(void)
{
    uint32_t legs[2] = { 0, 0 };

    for (;;) {
        uint32_t m[3];
        unsigned src;
        unsigned n = rt_recv(&src, m, 3);
        if (n == 1 && m[0] == MSG_STOP)
            break;
        if (n != 3 || (m[0] >> 16) != MSG_TRIP || m[1] > HIGHWAY80) {
            rt_puts("ptoll: bad trip message\n");
            return 1;
        }
        uint32_t reply[3] = { m[0] & 0xffffu, m[1], drive(m[1], m[2]) };
        rt_send(src, reply, 3);
        legs[m[1]]++;
    }
    uint32_t done[3] = { MSG_DONE, legs[ROUTE66], legs[HIGHWAY80] };
    rt_send(0, done, 3);
    return 0;
}

static int dispatcher(unsigned ncores)
{
    static uint32_t tolls[PTOLL_TRIPS];
    static bool answered[PTOLL_TRIPS];
    unsigned workers = ncores - 1u < PTOLL_MAX_WORKERS ? ncores - 1u : PTOLL_MAX_WORKERS;
    unsigned outstanding[PTOLL_MAX_WORKERS + 1u] = { 0 };
    unsigned sent = 0, received = 0;
    bool ok = true;

    if (workers == 0) {
        for (unsigned i = 0; i < PTOLL_TRIPS; i++) {
            tolls[i] = drive(trip_road(i), trip_miles(i));
            answered[i] = true;
        }
        received = PTOLL_TRIPS;
    }
    while (received < PTOLL_TRIPS) {
        unsigned w = sent < PTOLL_TRIPS ? 1u + sent % workers : 0u;
        if (w != 0 && outstanding[w] < PTOLL_WINDOW) {
            uint32_t trip[3] = { (MSG_TRIP << 16) | sent, trip_road(sent), trip_miles(sent) };
            rt_send(w, trip, 3);
            outstanding[w]++;
            sent++;
            continue;
        }
        uint32_t r[3];
        unsigned src;
        if (rt_recv(&src, r, 3) != 3 || r[0] >= PTOLL_TRIPS || answered[r[0]]) {
            rt_puts("ptoll: bad reply\n");
            ok = false;
            break;
        }
        tolls[r[0]] = r[2];
        answered[r[0]] = true;
        if (src <= workers && outstanding[src] > 0)
            outstanding[src]--;
        received++;
    }

    uint32_t legs[2] = { 0, 0 }, want_legs[2] = { 0, 0 }, total = 0;
    for (unsigned i = 0; i < PTOLL_TRIPS; i++) {
        unsigned road = trip_road(i), miles = trip_miles(i);
        uint32_t want = toll_for(road, miles);
        bool right = answered[i] && tolls[i] == want;
        ok = ok && right;
        want_legs[road]++;
        total += tolls[i];
        rt_printf("trip %2u: %-9s %2u miles toll %4u %s\n", i, road_names[road],
                  miles, tolls[i], right ? "ok" : "WRONG");
    }
    if (workers == 0) {
        legs[ROUTE66] = want_legs[ROUTE66];
        legs[HIGHWAY80] = want_legs[HIGHWAY80];
    }
    /* every other core, including any beyond PTOLL_MAX_WORKERS, stops */
    for (unsigned w = 1; w < ncores; w++) {
        uint32_t stop = MSG_STOP;
        rt_send(w, &stop, 1);
    }
    for (unsigned w = 1; w < ncores; w++) {
        uint32_t d[3];
        if (rt_recv(NULL, d, 3) != 3 || d[0] != MSG_DONE) {
            ok = false;
            continue;
        }
        legs[ROUTE66] += d[1];
        legs[HIGHWAY80] += d[2];
    }
    ok = ok && legs[ROUTE66] == want_legs[ROUTE66] && legs[HIGHWAY80] == want_legs[HIGHWAY80];
    rt_printf("ptoll: %u trips, %u on route66, %u on highway80, toll %u %s\n",
              PTOLL_TRIPS, legs[ROUTE66], legs[HIGHWAY80], total, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

int main(unsigned core, unsigned ncores)
{
    if (core == 0)
        return dispatcher(ncores);
    return worker();
}
