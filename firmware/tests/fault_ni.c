/* SPDX-License-Identifier: GPL-2.0-or-later */ /*
 * fault_ni.c - every core writes NI TX_SEND with no word staged, in
 * send_empty_packet().  Expected: NI misuse error ("TX_SEND with nothing
 * staged") at the PC of the store in send_empty_packet, exit status 3.
 */
#include "nocprof.h"

void send_empty_packet(unsigned dst)
{
    rt_mmio_write(RT_NI_BASE, RT_NI_TX_DEST, dst);
    rt_mmio_write(RT_NI_BASE, RT_NI_TX_SEND, 1u);
}

int main(unsigned core, unsigned ncores)
{
    rt_printf("fault_ni: core %u sends an empty packet\n", core);
    send_empty_packet((core + 1u) % ncores);
    rt_puts("fault_ni: not reached\n");
    return 1;
}
