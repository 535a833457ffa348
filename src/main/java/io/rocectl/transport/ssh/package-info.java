/**
 * The SSH implementation over sshj (the only package importing sshj): connections, OpenSSH known_hosts policies.
 */
package io.rocectl.transport.ssh;
