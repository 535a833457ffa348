package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code remote_user} and {@code become_user} are never silently ignored: {@code remote_user} is
 * refused wherever it appears (the SSH user comes from the inventory or -u), {@code become_user}
 * is accepted only as {@code root} (what sudo -n does) and refused otherwise, at load time with
 * file:line:col.
 */
class UserKeywordsTest {
    @TempDir Path dir;

    InputError refused(String yaml) throws Exception {
        Path p = dir.resolve("pb.yaml");
        Files.writeString(p, yaml);
        InputError e = assertThrows(InputError.class, () -> new PlaybookLoader(ModuleRegistry.builtin()).load(p));
        assertEquals(p.toString(), e.oneLine().substring(0, p.toString().length()));
        return e;
    }

    @Test
    void remoteUserOnAPlayIsRefusedWithItsPlace() throws Exception {
        InputError e = refused("- hosts: all\n  remote_user: admin\n  tasks:\n    - ping:\n");
        assertEquals(":2:3: " + PlaybookLoader.REMOTE_USER, e.oneLine().substring(e.oneLine().indexOf(":2:")));
    }

    @Test
    void remoteUserOnATaskIsRefusedWithItsPlace() throws Exception {
        InputError e = refused("- hosts: all\n  tasks:\n    - ping:\n      remote_user: admin\n");
        assertEquals(":4:7: " + PlaybookLoader.REMOTE_USER, e.oneLine().substring(e.oneLine().indexOf(":4:")));
    }

    @Test
    void becomeUserOtherThanRootIsRefusedOnPlaysAndTasks() throws Exception {
        InputError play = refused("- hosts: all\n  become: true\n  become_user: postgres\n  tasks:\n    - ping:\n");
        assertEquals(":3:16: become_user 'postgres' is not supported by rocectl: become runs commands as root (sudo -n); "
                + "only become_user: root is accepted", play.oneLine().substring(play.oneLine().indexOf(":3:")));
        InputError task = refused("- hosts: all\n  tasks:\n    - ping:\n      become: true\n      become_user: www-data\n");
        assertEquals(":5:20: become_user 'www-data'", task.oneLine().substring(task.oneLine().indexOf(":5:"),
                task.oneLine().indexOf(" is not")));
    }

    @Test
    void becomeUserRootIsWhatBecomeDoes() throws Exception {
        Path p = dir.resolve("root.yaml");
        Files.writeString(p, "- hosts: all\n  become_user: root\n  tasks:\n    - ping:\n      become_user: root\n");
        assertDoesNotThrow(() -> new PlaybookLoader(ModuleRegistry.builtin()).load(p));
    }
}
