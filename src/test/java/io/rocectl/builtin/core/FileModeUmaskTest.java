package io.rocectl.builtin.core;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Symbolic modes under the host's umask: every row of {@code file/symbolic-umask.yaml} is what
 * ansible-core's own {@code _symbolic_mode_to_octal} computed in a process with that umask
 * (recorded by {@code src/test/ansible/record-symbolic-modes.sh}); a who-less clause such as
 * {@code +x} or {@code -w} leaves the umask's bits alone, so 022, 027 and 077 give different modes.
 */
class FileModeUmaskTest {

    @TestFactory
    Stream<DynamicTest> symbolicModesMatchAnsibleUnderEachUmask() {
        return Fixtures.cases("file/symbolic-umask.yaml").stream().map(c -> DynamicTest.dynamicTest(
                "umask " + c.get("umask") + " " + c.get("mode") + " on " + c.get("type") + " " + c.get("current"), () -> {
                    int umask = Integer.parseInt((String) c.get("umask"), 8);
                    assertEquals(c.get("expect"), FileMode.resolve(FileMode.parse(c.get("mode")), (String) c.get("current"),
                            "directory".equals(c.get("type")), umask));
                }));
    }

    @Test
    void theStatReadsTheUmaskAndNewPathsGetTheModeItLeaves() {
        FileStat absent = FileStat.parse("/srv/x/new", "absent\0" + "0027\0");
        assertEquals("0027", absent.umask());
        assertEquals("0640", absent.createMode(false));
        assertEquals("0750", absent.createMode(true));
        FileStat file = FileStat.parse("/srv/x/f", "regular file\t600\t0\troot\t0\troot\0\0/srv/x/f\0\0" + "77\0");
        assertEquals("0077", file.umask());
        assertEquals("0600", file.createMode(false));
        assertEquals("0700", FileMode.resolve("+x", file.mode(), false, file.umaskBits()));
    }

    @Test
    void noUmaskIsAssumedWhenTheStatDidNotReadOne() {
        FileStat old = FileStat.parse("/srv/x/new", "absent\0");
        assertThrows(RuntimeException.class, () -> old.createMode(false));
        assertThrows(RuntimeException.class, () -> FileStat.parse("/srv/x/new", "absent\0" + "u=rwx\0"));
    }
}
