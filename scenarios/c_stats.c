/* A struct of statistics counted on every packet, as a network driver
 * keeps them, laid out three ways: one shared struct changed by atomics,
 * a per-CPU struct (the kernel's way, summed by the reader), and an array
 * indexed by CPU whose entries share lines. CPU 0 also reads the packet
 * count now and then, as /proc would, while the others count. */
#include <bounce.h>

#ifndef LAYOUT
#define LAYOUT 1          /* 0 shared + atomics, 1 per-CPU, 2 array[NR_CPUS] */
#endif
#ifndef PACKETS
#define PACKETS 1000      /* per CPU */
#endif
#ifndef READ_EVERY
#define READ_EVERY 100    /* CPU 0 reads the count every READ_EVERY packets */
#endif

struct net_stats {
	unsigned long packets;
	unsigned long bytes;
	unsigned long drops;
};

struct net_stats shared_stats ____cacheline_aligned;
DEFINE_PER_CPU(struct net_stats, pcpu_stats);
struct net_stats stats_by_cpu[NR_CPUS] ____cacheline_aligned;
/* The reader's last answer; bounce keeps the exact count beside it (its
 * ghost), so the report gives the reads' error. */
long packets_seen ____cacheline_aligned;
static long nr_done ____cacheline_aligned;

static void count_packet(unsigned long len, int dropped)
{
	bounce_ghost_add(&packets_seen, 1);
	if (LAYOUT == 0) {
		__atomic_fetch_add(&shared_stats.packets, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&shared_stats.bytes, len, __ATOMIC_RELAXED);
		if (dropped)
			__atomic_fetch_add(&shared_stats.drops, 1, __ATOMIC_RELAXED);
	} else if (LAYOUT == 1) {
		this_cpu_inc(pcpu_stats.packets);
		this_cpu_add(pcpu_stats.bytes, len);
		if (dropped)
			this_cpu_inc(pcpu_stats.drops);
	} else {
		/* Only this CPU writes its entry: no atomics needed, but its
		 * neighbours' entries are on the same line. */
		struct net_stats *s = &stats_by_cpu[smp_processor_id()];
		WRITE_ONCE(s->packets, s->packets + 1);
		WRITE_ONCE(s->bytes, s->bytes + len);
		if (dropped)
			WRITE_ONCE(s->drops, s->drops + 1);
	}
}

/* The sum over CPUs, taken while they count: approximate. */
static long read_packets(void)
{
	long sum = 0;
	int cpu;

	if (LAYOUT == 0)
		sum = READ_ONCE(shared_stats.packets);
	else if (LAYOUT == 1)
		for_each_online_cpu(cpu)
			sum += READ_ONCE(per_cpu(pcpu_stats, cpu).packets);
	else
		for_each_online_cpu(cpu)
			sum += READ_ONCE(stats_by_cpu[cpu].packets);
	bounce_ghost_read(&packets_seen, sum);
	return sum;
}

void worker(void)
{
	unsigned long rnd = (unsigned long)smp_processor_id() * 2654435761u + 1;

	for (long i = 0; i < PACKETS; i++) {
		rnd = rnd * 6364136223846793005ul + 1442695040888963407ul;
		bounce_work(300); /* the rest of the receive path */
		count_packet(64 + (rnd >> 54), (rnd >> 32) % 100 == 0);
		bounce_op();
		if (smp_processor_id() == 0 && i % READ_EVERY == 0)
			WRITE_ONCE(packets_seen, read_packets());
	}
	__atomic_fetch_add(&nr_done, 1, __ATOMIC_RELAXED);
	if (smp_processor_id() != 0)
		return;
	while (READ_ONCE(nr_done) < NR_CPUS)
		cpu_relax();
	smp_mb();
	WRITE_ONCE(packets_seen, read_packets()); /* all done: exact */
}
