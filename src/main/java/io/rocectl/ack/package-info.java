/**
 * The acknowledgement list: faults an operator has acknowledged (a dead NIC waiting for a
 * technician), per cluster, each for one cause and optionally until a time. Pure apart from reading
 * and writing the list's file; which faults of a run it covers is decided by {@link AckList#match}.
 */
package io.rocectl.ack;
