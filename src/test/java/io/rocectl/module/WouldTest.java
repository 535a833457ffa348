package io.rocectl.module;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Check mode's wording of the messages the modules write in the past tense. */
class WouldTest {
    @Test
    void eachClauseTakesTheBaseForm() {
        assertEquals("would create /etc/x", Would.say("created /etc/x"));
        assertEquals("would remove file /f", Would.say("removed file /f"));
        assertEquals("would create directory /d, change mode 0755 -> 0700", Would.say("created directory /d, mode 0755 -> 0700"));
        assertEquals("would add line", Would.say("line added"));
        assertEquals("would retarget link /a -> /b", Would.say("link retargeted /a -> /b"));
        assertEquals("would insert block", Would.say("Block inserted"));
        assertEquals("would change owner a -> b", Would.say("owner a -> b"));
        assertEquals("would remove rocectl's keys from /etc/nccl.conf", Would.say("removed rocectl's keys from /etc/nccl.conf"));
    }

    @Test
    void aWouldMessageAndAnEmptyOneStay() {
        assertEquals("would write /etc/nccl.conf", Would.say("would write /etc/nccl.conf"));
        assertEquals("", Would.say(""));
        assertEquals("", Would.say(null));
    }
}
