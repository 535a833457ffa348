package io.rocectl.fact;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** {@link RdmaSysfs#fields} splits as the regular expression it replaces; {@link Rule}'s written-out equality. */
class RdmaSysfsFieldsTest {
    @Test
    void fieldsSplitAsTheRegularExpressionDid() {
        Random r = new Random(7);
        String[] parts = {"gid", "mlx5_0", "1", "fe80:0000:0000:0000:0072:01ff:fe00:0501", "-", "RoCE v2", "ACTIVE", " ", "\t",
            "  ", " \t ", "\r", "\u000b", "\f", "x"};
        for (int i = 0; i < 5000; i++) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(12);
            for (int k = 0; k < n; k++) b.append(parts[r.nextInt(parts.length)]);
            String line = b.toString();
            for (int limit : new int[] {1, 2, 3, 5, 7}) {
                assertArrayEquals(line.strip().split("\\s+", limit), RdmaSysfs.fields(line, limit), "'" + line + "' limit " + limit);
            }
        }
    }

    @Test
    void ruleEqualityTakesEveryComponent() {
        Rule a = new Rule(100, "10.0.0.1", 32, 100, false);
        assertEquals(a, new Rule(100, new String("10.0.0.1"), 32, 100, false));
        assertEquals(a.hashCode(), new Rule(100, new String("10.0.0.1"), 32, 100, false).hashCode());
        for (Rule b : new Rule[] {new Rule(101, "10.0.0.1", 32, 100, false), new Rule(100, "10.0.0.2", 32, 100, false),
            new Rule(100, "10.0.0.1", 24, 100, false), new Rule(100, "10.0.0.1", 32, 101, false),
            new Rule(100, "10.0.0.1", 32, 100, true)}) {
            assertNotEquals(a, b);
            assertNotEquals(b, a);
        }
        assertNotEquals(a, "from 10.0.0.1/32 lookup 100 priority 100");
    }
}
