package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Misra & Gries edge colouring with at most max degree + 1 colours, for the irregular or odd
 * groups the circle method cannot schedule optimally. O(E * V); used only below a size limit.
 */
final class MisraGries {
    private final int colours;
    private final int[][] at; // at[v][c] = neighbour joined to v by colour c, or -1
    private final Map<Long, Integer> colourOf = new HashMap<>();
    private final int[][] matrix; // colour by vertex pair when n is small, else null (use the map)
    private final int n;

    private MisraGries(int n, int maxDegree) {
        this.n = n;
        this.colours = maxDegree + 1;
        this.at = new int[n][colours];
        for (int[] row : at) Arrays.fill(row, -1);
        this.matrix = n <= 2048 ? new int[n][n] : null;
        if (matrix != null) for (int[] row : matrix) Arrays.fill(row, -1);
    }

    /**
     * Colours the edges {@code (us[i], vs[i])} of a simple graph on vertices {@code 0..n-1}.
     *
     * @return colour per edge, in {@code 0..maxDegree}
     */
    static int[] colour(int n, int[] us, int[] vs) {
        int[] deg = new int[n];
        for (int i = 0; i < us.length; i++) {
            deg[us[i]]++;
            deg[vs[i]]++;
        }
        int max = Arrays.stream(deg).max().orElse(0);
        MisraGries mg = new MisraGries(n, max);
        for (int i = 0; i < us.length; i++) mg.colourEdge(us[i], vs[i]);
        int[] out = new int[us.length];
        for (int i = 0; i < us.length; i++) out[i] = mg.colourOf(us[i], vs[i]);
        return out;
    }

    private long key(int a, int b) {
        return a < b ? (long) a * n + b : (long) b * n + a;
    }

    private int commonFree(int a, int b) {
        int[] x = at[a], y = at[b];
        for (int c = 0; c < colours; c++) if (x[c] < 0 && y[c] < 0) return c;
        return -1;
    }

    private boolean free(int v, int c) {
        return at[v][c] < 0;
    }

    private int anyFree(int v) {
        for (int c = 0; c < colours; c++) if (at[v][c] < 0) return c;
        throw new IllegalStateException("no free colour");
    }

    private int colourOf(int a, int b) {
        if (matrix != null) return matrix[a][b];
        Integer c = colourOf.get(key(a, b));
        return c == null ? -1 : c;
    }

    private void set(int a, int b, int c) {
        at[a][c] = b;
        at[b][c] = a;
        if (matrix != null) {
            matrix[a][b] = c;
            matrix[b][a] = c;
        } else {
            colourOf.put(key(a, b), c);
        }
    }

    private void unset(int a, int b) {
        int c = colourOf(a, b);
        if (matrix != null) {
            matrix[a][b] = -1;
            matrix[b][a] = -1;
        } else {
            colourOf.remove(key(a, b));
        }
        at[a][c] = -1;
        at[b][c] = -1;
    }

    private void colourEdge(int u, int v0) {
        int common = commonFree(u, v0);
        if (common >= 0) {
            set(u, v0, common);
            return;
        }
        List<Integer> fan = new ArrayList<>();
        fan.add(v0);
        boolean[] inFan = new boolean[n];
        inFan[v0] = true;
        boolean grown = true;
        while (grown) {
            grown = false;
            int last = fan.get(fan.size() - 1);
            for (int c = 0; c < colours && !grown; c++) {
                int x = at[u][c];
                if (x >= 0 && !inFan[x] && free(last, c)) {
                    fan.add(x);
                    inFan[x] = true;
                    // a colour free at both u and the new fan end ends the fan: no path to invert
                    grown = commonFree(u, x) < 0;
                    break;
                }
            }
        }
        int lastV = fan.get(fan.size() - 1);
        int d = commonFree(u, lastV);
        int c = d;
        if (d < 0) {
            c = anyFree(u);
            d = anyFree(lastV);
            invertPath(u, c, d);
        }
        int w = -1;
        for (int i = 0; i < fan.size(); i++) {
            if (free(fan.get(i), d) && isFan(u, fan, i)) {
                w = i;
                break;
            }
        }
        if (w < 0) throw new IllegalStateException("Misra-Gries: no fan end (bug)");
        int[] shifted = new int[w];
        for (int j = 0; j < w; j++) shifted[j] = colourOf(u, fan.get(j + 1));
        for (int j = 1; j <= w; j++) unset(u, fan.get(j));
        for (int j = 0; j < w; j++) set(u, fan.get(j), shifted[j]);
        set(u, fan.get(w), d);
    }

    private boolean isFan(int u, List<Integer> fan, int upTo) {
        for (int j = 0; j < upTo; j++) {
            int col = colourOf(u, fan.get(j + 1));
            if (col < 0 || !free(fan.get(j), col)) return false;
        }
        return true;
    }

    /** Swaps colours c and d on the c/d alternating path that starts at u with a d edge. */
    private void invertPath(int u, int c, int d) {
        List<int[]> path = new ArrayList<>();
        int cur = u;
        int want = d;
        while (true) {
            int next = at[cur][want];
            if (next < 0) break;
            path.add(new int[] {cur, next, want});
            cur = next;
            want = want == d ? c : d;
        }
        for (int[] e : path) unset(e[0], e[1]);
        for (int[] e : path) set(e[0], e[1], e[2] == d ? c : d);
    }
}
