package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import org.junit.jupiter.api.Test;

/** The outlier faults' arguments: what each writes, and bad input refused before the lab is touched. */
class OutlierFaultsTest {
    @Test
    void rateKeepsTheWidthAndRestoresTheEmulationsDefault() {
        assertEquals("100 Gb/sec (4X EDR)", OutlierFaults.rate(null));
        assertEquals(RdmaEmulation.RATE, OutlierFaults.rate("200"));
        assertTrue(assertThrows(InputError.class, () -> OutlierFaults.rate("150")).oneLine().contains("100, 200, 400, 800"));
    }

    @Test
    void sysctlTakesAnArpOrReversePathKeyAndOneDigit() {
        assertArrayEquals(new String[] {"arp_ignore", "0"}, OutlierFaults.sysctl("arp_ignore=0"));
        assertArrayEquals(new String[] {"rp_filter", "2"}, OutlierFaults.sysctl("rp_filter=2"));
        assertTrue(assertThrows(InputError.class, () -> OutlierFaults.sysctl(null)).oneLine().contains("KEY=VALUE"));
        assertTrue(assertThrows(InputError.class, () -> OutlierFaults.sysctl("forwarding=1")).oneLine().contains("arp_ignore"));
        assertTrue(assertThrows(InputError.class, () -> OutlierFaults.sysctl("arp_ignore=1;reboot")).oneLine().contains("0..8"));
    }

    @Test
    void everyOutlierFaultIsAFaultThatTakesItsArgument() {
        assertTrue(Faults.NAMES.containsAll(OutlierFaults.NAMES));
        assertTrue(Faults.WITH_ARG.containsAll(OutlierFaults.NAMES));
    }
}
