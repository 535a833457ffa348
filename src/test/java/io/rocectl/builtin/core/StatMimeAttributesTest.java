package io.rocectl.builtin.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stat}'s mime type and file attributes, as Ansible's stat module reports them by default
 * ({@code get_mime}, {@code get_attributes}): parsed from file(1) and lsattr(1) outputs, "unknown"
 * and empty when the tools are missing, and read for real from this machine's tools.
 */
class StatMimeAttributesTest {
    @TempDir
    Path dir;

    @Test
    void fileAndLsattrOutputsParseAsAnsibleReportsThem() {
        assertEquals(Map.of("mimetype", "text/plain", "charset", "us-ascii"), StatModule.mime("text/plain; charset=us-ascii\n"));
        assertEquals(Map.of("mimetype", "inode/directory", "charset", "binary"), StatModule.mime("inode/directory; charset=binary"));
        assertEquals(Map.of("mimetype", "unknown", "charset", "unknown"), StatModule.mime("-"));
        Map<String, Object> a = StatModule.attributes("0          --------------e------- /etc/hostname\n");
        assertEquals("0", a.get("version"));
        assertEquals("e", a.get("attr_flags"));
        assertEquals(List.of("extents"), a.get("attributes"));
        Map<String, Object> ai = StatModule.attributes("3624468592 ----i-A------e------ /x y");
        assertEquals("iAe", ai.get("attr_flags"));
        assertEquals(List.of("immutable", "noatime", "extents"), ai.get("attributes"));
        Map<String, Object> none = StatModule.attributes("-");
        assertNull(none.get("version"));
        assertEquals(List.of(), none.get("attributes"));
        assertEquals("", none.get("attr_flags"));
    }

    @Test
    void aRealFileHasItsMimeTypeAndTheKeysAnsibleRegisters() throws Exception {
        Path f = Files.writeString(dir.resolve("hello.txt"), "hello\n");
        Map<?, ?> st = (Map<?, ?>) Ctx.run(new StatModule(), Map.of("path", f.toString())).data().get("stat");
        boolean haveFile = new ProcessBuilder("sh", "-c", "command -v file").start().waitFor() == 0;
        assertEquals(haveFile ? "text/plain" : "unknown", st.get("mimetype"));
        assertEquals(haveFile ? "us-ascii" : "unknown", st.get("charset"));
        assertTrue(st.containsKey("version") && st.containsKey("attr_flags") && st.containsKey("attributes"), st.toString());
        Map<?, ?> off = (Map<?, ?>) Ctx.run(new StatModule(), Map.of("path", f.toString(), "get_mime", false,
                "get_attributes", false)).data().get("stat");
        assertTrue(!off.containsKey("mimetype") && !off.containsKey("attributes"), off.toString());
    }
}
