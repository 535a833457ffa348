package io.rocectl.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** JSON of a {@link ProbeReport} (pretty printed, field order fixed) and back. */
public final class ReportJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ReportJson() {}

    public static String write(ProbeReport r) {
        try {
            return MAPPER.writeValueAsString(r) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise report", e);
        }
    }

    /**
     * The report with extra top-level fields (e.g. {@code remediation}), serialised after the
     * report's own; readers that know only the report ignore them.
     */
    public static String write(ProbeReport r, java.util.Map<String, Object> extra) {
        com.fasterxml.jackson.databind.node.ObjectNode n = MAPPER.valueToTree(r);
        extra.forEach((k, v) -> n.set(k, MAPPER.valueToTree(v)));
        try {
            return MAPPER.writeValueAsString(n) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise report", e);
        }
    }

    /** Reads a report written by {@link #write} (unknown fields ignored, for forward compatibility). */
    public static ProbeReport read(String json) {
        try {
            return MAPPER.readValue(json, ProbeReport.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a probe report: " + e.getOriginalMessage(), e);
        }
    }
}
