package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class RegistryTest {
    @Test
    void everyRoceModuleIsRegistered() {
        for (String m : new String[] {"setup", "sysctl", "roce_facts", "roce_routing", "roce_arp", "roce_neigh",
                "roce_persist", "nccl_env", "roce_verify", "rdma_limits", "rdma_irq"}) {
            assertNotNull(ModuleRegistry.builtin().find(m), m);
            assertEquals(m, ModuleRegistry.builtin().find(m).name());
        }
        assertEquals("sysctl", ModuleRegistry.builtin().find("ansible.posix.sysctl").name());
    }

    @Test
    void roceNicsAcceptsListsStringsAndUnparsedFlowLists() {
        assertEquals(java.util.List.of("ens*f0", "ens*f1"), RoceHost.nicPatterns("[\"ens*f0\", 'ens*f1']"));
        assertEquals(java.util.List.of("a", "b"), RoceHost.nicPatterns("a, b"));
        assertEquals(java.util.List.of("x"), RoceHost.nicPatterns(java.util.List.of("x")));
        assertEquals(java.util.List.of(), RoceHost.nicPatterns(null));
    }

    @Test
    void ncclTrafficClassIsUnsetUnlessGiven() {
        assertEquals(null, NcclEnvModule.ibTc(null));
        assertEquals(null, NcclEnvModule.ibTc(" "));
        assertEquals(106, NcclEnvModule.ibTc("106"));
        assertEquals(128, NcclEnvModule.ibTc(128));
    }
}
