// SPDX-License-Identifier: GPL-2.0-or-later
/* fw_main.c - firmware entry of a bench workload: main -> workload_main. */
#include "workload.h"

int main(unsigned core, unsigned ncores)
{
    return workload_main(core, ncores);
}
