// SPDX-License-Identifier: GPL-2.0
/*
 * AllocService: the JVM workload of guest/tests/bench-apps. A request
 * handler as a service written in Java runs one: each request allocates a
 * short-lived buffer (garbage at once) and, now and then, a session that
 * stays in a bounded cache (promoted to the old generation, dropped later).
 * With G1, the young generation's regions are filled one after another and
 * swept at each young collection, so between two collections most of the
 * eden is written once and then left alone: what a page table walk finds
 * between collections depends on how the collection cycle compares with
 * the aging interval (the suite sets the cycle with -Xmn and the rate).
 *
 * Usage: java [JVM options] AllocService.java RATE BYTES SESSIONS COUNTER
 *   RATE      requests per second at most (0: as fast as it can)
 *   BYTES     bytes each request allocates
 *   SESSIONS  sessions the cache keeps (one in 64 requests makes one)
 *   COUNTER   the request count, published as agent-job does: 8 bytes,
 *             native endian, in COUNTER (written as COUNTER.new, renamed
 *             when ready)
 */
import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

public class AllocService {
	public static void main(String[] args) throws Exception {
		if (args.length != 4) {
			System.err.println("usage: AllocService RATE BYTES SESSIONS COUNTER");
			System.exit(2);
		}
		long rate = Long.parseLong(args[0]);
		int bytes = Integer.parseInt(args[1]);
		int sessions = Integer.parseInt(args[2]);
		Path counter = Path.of(args[3]);
		Path tmp = Path.of(args[3] + ".new");
		MappedByteBuffer ops;
		try (RandomAccessFile f = new RandomAccessFile(tmp.toFile(), "rw")) {
			f.setLength(8);
			ops = f.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, 8);
		}
		ops.order(ByteOrder.nativeOrder());
		Files.move(tmp, counter, StandardCopyOption.ATOMIC_MOVE);
		byte[][] cache = new byte[sessions][];
		long n = 0, sum = 0, start = System.nanoTime();
		for (;;) {
			byte[] buf = new byte[bytes];
			// touch every page of the buffer, as a parser filling it would
			for (int i = 0; i < bytes; i += 4096)
				buf[i] = (byte) n;
			sum += buf[(int) (n % bytes)];
			if ((n & 63) == 0) {
				int s = (int) ((n >> 6) % sessions);
				cache[s] = new byte[bytes / 4];
				cache[s][0] = (byte) sum;
			}
			n++;
			ops.putLong(0, n);
			if (rate > 0) {
				long due = start + n * 1_000_000_000L / rate;
				long now = System.nanoTime();
				if (due > now)
					Thread.sleep((due - now) / 1_000_000, (int) ((due - now) % 1_000_000));
			}
		}
	}
}
