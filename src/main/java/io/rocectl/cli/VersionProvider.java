package io.rocectl.cli;

import picocli.CommandLine;

/** The version from the jar manifest. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = RocectlCommand.class.getPackage().getImplementationVersion();
        return new String[] {"rocectl " + (v == null ? "dev" : v), "Java " + System.getProperty("java.version")};
    }
}
