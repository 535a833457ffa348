package io.rocectl.yaml;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A YAML 1.1 timestamp as PyYAML, and so Ansible, constructs it: a Python {@code date}
 * ({@code 2002-12-14}) or {@code datetime} ({@code 2001-12-14 21:59:43.10 -5}), not a string.
 *
 * <p>Read as text (a template, {@code debug}) it is Python's {@code str()}: {@code 2002-12-14},
 * {@code 2001-12-14 21:59:43.100000-05:00}. {@code ansible-inventory} prints its
 * {@link #iso() isoformat()} ({@code T} between date and time); inside a list or mapping a
 * template shows its {@link #repr() repr()}. It equals only another timestamp of the same kind
 * and moment ({@link #pyEquals}), never a string, as in Python.
 *
 * @param text     the scalar as written
 * @param str      Python's {@code str()}
 * @param iso      Python's {@code isoformat()}
 * @param repr     Python's {@code repr()}
 * @param date     a date alone (no time)
 * @param local    the moment: the date at midnight, or the date and time as written
 * @param offset   the time zone, or null (a date, or a datetime without a zone)
 */
public record Timestamp(String text, String str, String iso, String repr, boolean date, LocalDateTime local,
                        ZoneOffset offset) implements CharSequence {
    /** PyYAML's {@code SafeConstructor.timestamp_regexp}. */
    private static final Pattern FORM = Pattern.compile("^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
            + "(?:(?:[Tt]|[ \\t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\\.([0-9]*))?"
            + "(?:[ \\t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)?$");

    /**
     * Constructs a timestamp from a scalar the resolver tagged as one, as PyYAML's
     * {@code construct_yaml_timestamp} does.
     *
     * @throws IllegalArgumentException where Python's {@code date}/{@code datetime} refuses the
     *     value (month 13, hour 24, a zone of a day or more), as PyYAML then fails the document
     */
    public static Timestamp parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) throw new IllegalArgumentException("not a YAML timestamp: '" + text + "'");
        int year = Integer.parseInt(m.group(1));
        int month = Integer.parseInt(m.group(2));
        int day = Integer.parseInt(m.group(3));
        LocalDate d;
        try {
            if (year < 1) throw new DateTimeException("year 0 is out of range");
            d = LocalDate.of(year, month, day);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid date (" + e.getMessage() + ")");
        }
        String ymd = String.format("%04d-%02d-%02d", year, month, day);
        if (m.group(4) == null) {
            return new Timestamp(text, ymd, ymd, "datetime.date(" + year + ", " + month + ", " + day + ")", true,
                    d.atStartOfDay(), null);
        }
        int hour = Integer.parseInt(m.group(4));
        int minute = Integer.parseInt(m.group(5));
        int second = Integer.parseInt(m.group(6));
        String f = m.group(7) == null ? "" : m.group(7);
        int micros = f.isEmpty() ? 0 : Integer.parseInt((f.length() > 6 ? f.substring(0, 6) : f + "0".repeat(6 - f.length())));
        LocalDateTime t;
        try {
            t = d.atTime(hour, minute, second, micros * 1000);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid time (" + e.getMessage() + ")");
        }
        ZoneOffset zone = null;
        if (m.group(9) != null) {
            int minutes = Integer.parseInt(m.group(10)) * 60 + (m.group(11) == null ? 0 : Integer.parseInt(m.group(11)));
            if (minutes >= 24 * 60) {
                throw new IllegalArgumentException("'" + text + "': a time zone must be less than 24 hours from UTC");
            }
            zone = ZoneOffset.ofTotalSeconds((m.group(9).equals("-") ? -minutes : minutes) * 60);
        } else if (m.group(8) != null) {
            zone = ZoneOffset.UTC;
        }
        String clock = String.format("%02d:%02d:%02d", hour, minute, second) + (micros == 0 ? "" : String.format(".%06d", micros))
                + (zone == null ? "" : zone(zone));
        StringBuilder repr = new StringBuilder("datetime.datetime(" + year + ", " + month + ", " + day + ", " + hour + ", " + minute);
        if (second != 0 || micros != 0) repr.append(", ").append(second);
        if (micros != 0) repr.append(", ").append(micros);
        if (zone != null) repr.append(", tzinfo=").append(zoneRepr(zone));
        repr.append(')');
        return new Timestamp(text, ymd + " " + clock, ymd + "T" + clock, repr.toString(), false, t, zone);
    }

    /** Python's {@code +HH:MM} of a UTC offset (a zero offset is {@code +00:00}). */
    private static String zone(ZoneOffset z) {
        int s = z.getTotalSeconds();
        int a = Math.abs(s) / 60;
        return (s < 0 ? "-" : "+") + String.format("%02d:%02d", a / 60, a % 60);
    }

    /** Python's {@code repr()} of a {@code datetime.timezone}. */
    private static String zoneRepr(ZoneOffset z) {
        int s = z.getTotalSeconds();
        if (s == 0) return "datetime.timezone.utc";
        int days = Math.floorDiv(s, 86400);
        int secs = Math.floorMod(s, 86400);
        return "datetime.timezone(datetime.timedelta(" + (days != 0 ? "days=" + days + ", " : "") + "seconds=" + secs + "))";
    }

    /**
     * Python's {@code ==} with a timestamp on one side: a date equals the same date, a datetime the
     * same moment (two with zones compared in UTC; with and without a zone never equal); a date
     * never equals a datetime, and neither equals a string.
     */
    public static boolean pyEquals(Object a, Object b) {
        if (!(a instanceof Timestamp x) || !(b instanceof Timestamp y)) return false;
        if (x.date != y.date) return false;
        if (x.date) return x.local.equals(y.local);
        if ((x.offset == null) != (y.offset == null)) return false;
        if (x.offset == null) return x.local.equals(y.local);
        return x.local.toInstant(x.offset).equals(y.local.toInstant(y.offset));
    }

    @Override
    public int length() {
        return str.length();
    }

    @Override
    public char charAt(int index) {
        return str.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return str.subSequence(start, end);
    }

    @Override
    public String toString() {
        return str;
    }
}
