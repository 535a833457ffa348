package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The rounds of one group of a {@link RoundSchedule}; see there for the methods. */
abstract class GroupPlan {

    interface PairSink {
        void pair(int server, int client);
    }

    abstract int rounds();

    abstract void forEachPair(int round, PairSink sink);

    static GroupPlan of(ProbeGraph graph, int g) {
        List<int[]> parts = graph.parts(g);
        int p = parts.size();
        int c = parts.stream().mapToInt(a -> a.length).max().orElse(0);
        boolean uniform = parts.stream().allMatch(a -> a.length == c);
        if (p < 2) return new Explicit(new int[0][]);
        if (uniform && (p % 2 == 0 || c == 1)) return new CircleLatin(parts, c, false);
        if (uniform && Integer.bitCount(c) == 1) return new Circulant(parts, c);
        long edges = 0;
        long total = parts.stream().mapToLong(a -> a.length).sum();
        for (int[] a : parts) edges += (long) a.length * (total - a.length);
        edges /= 2;
        if (edges <= RoundSchedule.EXPLICIT_EDGE_LIMIT) return Explicit.colour(parts);
        return new CircleLatin(parts, c, true);
    }

    /** Circle method over parts x Latin square over the c slots of each part. */
    static final class CircleLatin extends GroupPlan {
        private final int[][] parts; // padded with -1 to c slots; a phantom part when p is odd
        private final int c;
        private final int p;
        private final boolean padded;

        CircleLatin(List<int[]> real, int c, boolean padded) {
            this.c = c;
            this.padded = padded;
            int n = real.size() % 2 == 0 ? real.size() : real.size() + 1;
            this.p = n;
            this.parts = new int[n][];
            for (int i = 0; i < n; i++) {
                int[] slot = new int[c];
                Arrays.fill(slot, -1);
                if (i < real.size()) System.arraycopy(real.get(i), 0, slot, 0, real.get(i).length);
                parts[i] = slot;
            }
        }

        boolean padded() { return padded; }

        @Override
        int rounds() { return (p - 1) * c; }

        @Override
        void forEachPair(int round, PairSink sink) {
            int hr = round / c;
            int shift = round % c;
            int m = p - 1;
            emit(parts[p - 1], parts[hr], shift, sink);
            for (int j = 1; j < p / 2; j++) {
                emit(parts[(hr + j) % m], parts[(hr - j + m) % m], shift, sink);
            }
        }

        private void emit(int[] a, int[] b, int shift, PairSink sink) {
            for (int i = 0; i < c; i++) {
                int x = a[i], y = b[(i + shift) % c];
                if (x >= 0 && y >= 0) sink.pair(x, y);
            }
        }
    }

    /**
     * Odd part count p with c = 2^m slots: NIC (h, i) is the element (h, i) of Z_p x Z_c, and each
     * cross-part edge is a translate by t = (d, s), d in 1..(p-1)/2. Translates with s = 0 are the
     * rails (c copies of K_p: circle method, p rounds); for s != 0 the order of t is even (c is a
     * power of two), so the translates by t form even cycles, 2 rounds each. Total
     * p + (p-1)(c-1) = (p-1)c + 1 = max degree + 1 rounds, generated on demand.
     */
    static final class Circulant extends GroupPlan {
        private final int[][] parts;
        private final int p;
        private final int c;

        Circulant(List<int[]> parts, int c) {
            this.parts = parts.toArray(int[][]::new);
            this.p = parts.size();
            this.c = c;
        }

        @Override
        int rounds() { return p + (p - 1) * (c - 1); }

        @Override
        void forEachPair(int round, PairSink sink) {
            if (round < p) { // rails: circle method over p (odd) parts with a phantom, all rails at once
                int m = p; // p + 1 positions, phantom at index p
                for (int j = 1; j <= p / 2; j++) {
                    int a = (round + j) % m, b = (round - j + m) % m;
                    for (int i = 0; i < c; i++) sink.pair(parts[a][i], parts[b][i]);
                }
                return;
            }
            int q = (round - p) / 2, parity = (round - p) % 2;
            int d = q / (c - 1) + 1, s = q % (c - 1) + 1;
            boolean[] seen = new boolean[p * c];
            for (int v = 0; v < p * c; v++) {
                if (seen[v]) continue;
                int h = v / c, i = v % c, j = 0;
                while (!seen[h * c + i]) {
                    seen[h * c + i] = true;
                    int h2 = (h + d) % p, i2 = (i + s) % c;
                    if (j % 2 == parity) sink.pair(parts[h][i], parts[h2][i2]);
                    h = h2;
                    i = i2;
                    j++;
                }
            }
        }
    }

    /** Explicit rounds from an edge colouring (small or irregular groups). */
    static final class Explicit extends GroupPlan {
        private final int[][] rounds; // rounds[r] = {a0, b0, a1, b1, ...}

        Explicit(int[][] rounds) {
            this.rounds = rounds;
        }

        static Explicit colour(List<int[]> parts) {
            List<Integer> verts = new ArrayList<>();
            List<Integer> partOf = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                for (int v : parts.get(i)) {
                    verts.add(v);
                    partOf.add(i);
                }
            }
            int n = verts.size();
            List<int[]> edges = new ArrayList<>();
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++)
                    if (!partOf.get(i).equals(partOf.get(j))) edges.add(new int[] {i, j});
            int[] us = edges.stream().mapToInt(e -> e[0]).toArray();
            int[] vs = edges.stream().mapToInt(e -> e[1]).toArray();
            int[] col = MisraGries.colour(n, us, vs);
            int maxCol = Arrays.stream(col).max().orElse(-1);
            List<List<Integer>> byCol = new ArrayList<>();
            for (int k = 0; k <= maxCol; k++) byCol.add(new ArrayList<>());
            for (int i = 0; i < us.length; i++) {
                byCol.get(col[i]).add(verts.get(us[i]));
                byCol.get(col[i]).add(verts.get(vs[i]));
            }
            return new Explicit(byCol.stream().filter(l -> !l.isEmpty())
                    .map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new));
        }

        @Override
        int rounds() { return rounds.length; }

        @Override
        void forEachPair(int round, PairSink sink) {
            int[] r = rounds[round];
            for (int i = 0; i < r.length; i += 2) sink.pair(r[i], r[i + 1]);
        }
    }
}
