package io.rocectl.op;

import java.util.List;
import java.util.Map;

/**
 * What {@link ArpPlanner} decided.
 *
 * @param live        slash-form sysctl path -> value to set now
 * @param fileContent the desired sysctl.d file content
 * @param fileChange  whether the file must be written
 * @param flush       NICs whose neighbour cache to flush after the live change
 * @param diff        "-"/"+" lines
 * @param notes       keys skipped and why
 */
public record ArpPlan(Map<String, String> live, String fileContent, boolean fileChange, List<String> flush,
                      List<String> diff, List<String> notes) {
    public boolean empty() {
        return live.isEmpty() && !fileChange;
    }
}
