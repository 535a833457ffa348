package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The cgroup mounts a lab host's fresh sysfs gets before its slurmd starts, from the machine's mountinfo. */
class SlurmLabCgroupTest {
    @Test
    void hybridV1MountsAreCopiedInOrder() {
        List<String> mi = List.of(
                "22 1 0:20 / /sys rw,nosuid - sysfs sysfs rw",
                "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
                "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
                "39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd",
                "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
                "41 1 0:38 / /mnt/cgroup rw - cgroup cgroup rw,memory");
        assertEquals(List.of("tmpfs", "mode=755", "/sys/fs/cgroup", "cgroup", "cpu", "/sys/fs/cgroup/cpu",
                "cgroup", "none,xattr,name=systemd", "/sys/fs/cgroup/systemd", "cgroup2", "defaults", "/sys/fs/cgroup/unified"),
                SlurmLab.cgroupMountArgs(mi));
    }

    @Test
    void aUnifiedHierarchyIsOneMount() {
        assertEquals(List.of("cgroup2", "nsdelegate,memory_recursiveprot", "/sys/fs/cgroup"), SlurmLab.cgroupMountArgs(List.of(
                "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot")));
    }
}
