/**
 * Files and directories rocectl itself creates on the control node (known_hosts entries, the
 * remediation lock, retry files, state directories): explicit modes that do not depend on the
 * umask, and never written through a symlink.
 */
package io.rocectl.fs;
