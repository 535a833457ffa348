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
