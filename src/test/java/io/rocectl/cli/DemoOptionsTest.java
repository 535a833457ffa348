package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.lab.Lab;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * {@code demo --mgmt-subnet/--subnet}: the lab's networks can be moved off a site network; a value
 * that is not a CIDR is bad input (exit 5, the value named) before any lab is touched.
 */
class DemoOptionsTest {
    @Test
    void aBadSubnetIsRefusedBeforeTheLabIsTouched() {
        String name = "h30demo";
        for (String opt : new String[] {"--mgmt-subnet", "--subnet"}) {
            Cli.Result r = Cli.run("demo", "--name", name, opt, "10.77.0.0/33");
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("not an IPv4 CIDR: '10.77.0.0/33'"), r.err());
            assertFalse(r.out().contains("== 1. lab"), "no lab step started: " + r.out());
            assertFalse(Files.exists(Lab.defaultDir(name)), "no lab directory");
        }
    }
}
