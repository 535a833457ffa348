/**
 * A host's RoCE NICs read over a {@code Connection} in one round trip: the network snapshot and
 * the NIC selection ({@code roce_nics}, {@code roce_subnet}, never the management NIC). Shared by
 * the RoCE modules and the prober's endpoint gathering, below both.
 */
package io.rocectl.nic;
