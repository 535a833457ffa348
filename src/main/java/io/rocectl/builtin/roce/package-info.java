/**
 * The RoCE modules ({@code roce_facts}, {@code roce_routing}, {@code roce_arp},
 * {@code roce_neigh}, {@code roce_persist}, {@code roce_verify}, {@code nccl_env}) and the
 * generic {@code setup} and {@code sysctl}. Each gathers what it needs in one round trip, plans
 * with {@code io.rocectl.op} (pure), and applies; check mode stops after planning.
 */
package io.rocectl.builtin.roce;
