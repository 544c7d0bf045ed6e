package dev.fleetfix.rollout.plan;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * When changes are allowed: days of the week, a time range in a zone. Written as
 * {@code "Sat 01:00-05:00 Europe/Berlin"}, {@code "Mon-Fri 22:00-02:00 UTC"} (crossing midnight:
 * the day names the start), {@code "Sat,Sun 00:00-24:00"}, {@code "daily 02:00-04:00"}. Without a
 * zone the clock's zone is used.
 *
 * @param days the days on which the window opens
 * @param start opening time, inclusive
 * @param end closing time, exclusive; before {@code start} when the window crosses midnight;
 *     {@code LocalTime.MAX} for "24:00"
 * @param zone the zone the times are in, or empty for the clock's
 * @param text the window as written
 */
public record ChangeWindow(Set<DayOfWeek> days, LocalTime start, LocalTime end, Optional<ZoneId> zone, String text) {

    public ChangeWindow {
        days = Set.copyOf(days);
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(text, "text");
        if (days.isEmpty()) {
            throw new IllegalArgumentException("window '" + text + "': no days");
        }
        if (start.equals(end)) {
            throw new IllegalArgumentException("window '" + text + "': start and end are both " + start);
        }
    }

    /** @throws IllegalArgumentException saying what is wrong with the text */
    public static ChangeWindow parse(String text) {
        String[] parts = text.strip().split("\\s+");
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException(
                    "window '" + text + "': expected DAYS HH:MM-HH:MM [ZONE], like \"Sat 01:00-05:00 Europe/Berlin\"");
        }
        Set<DayOfWeek> days = days(parts[0], text);
        String[] range = parts[1].split("-");
        if (range.length != 2) {
            throw new IllegalArgumentException(
                    "window '" + text + "': expected a time range HH:MM-HH:MM, was '" + parts[1] + "'");
        }
        LocalTime start = time(range[0], text);
        LocalTime end = range[1].equals("24:00") ? LocalTime.MAX : time(range[1], text);
        Optional<ZoneId> zone = Optional.empty();
        if (parts.length == 3) {
            try {
                zone = Optional.of(ZoneId.of(parts[2]));
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("window '" + text + "': unknown time zone '" + parts[2] + "'");
            }
        }
        return new ChangeWindow(days, start, end, zone, text.strip());
    }

    /** Whether the window is open at this instant, as seen in its zone (or {@code fallbackZone}). */
    public boolean isOpen(Instant now, ZoneId fallbackZone) {
        ZonedDateTime t = now.atZone(zone.orElse(fallbackZone));
        LocalTime time = t.toLocalTime();
        DayOfWeek day = t.getDayOfWeek();
        if (start.isBefore(end)) {
            return days.contains(day) && !time.isBefore(start) && time.isBefore(end);
        }
        boolean lateOnOpeningDay = days.contains(day) && !time.isBefore(start);
        boolean earlyOnNextDay = days.contains(day.minus(1)) && time.isBefore(end);
        return lateOnOpeningDay || earlyOnNextDay;
    }

    /** "Mon 10:42 Europe/Berlin": the instant as the window's zone sees it, for messages. */
    public String localTime(Instant now, ZoneId fallbackZone) {
        ZoneId z = zone.orElse(fallbackZone);
        ZonedDateTime t = now.atZone(z);
        return t.getDayOfWeek().getDisplayName(java.time.format.TextStyle.SHORT, Locale.ROOT) + " "
                + String.format(Locale.ROOT, "%02d:%02d", t.getHour(), t.getMinute()) + " " + z;
    }

    private static Set<DayOfWeek> days(String spec, String text) {
        String s = spec.toLowerCase(Locale.ROOT);
        if (s.equals("daily") || s.equals("*")) {
            return EnumSet.allOf(DayOfWeek.class);
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String item : s.split(",")) {
            String[] range = item.split("-");
            if (range.length == 1) {
                days.add(day(range[0], text));
            } else if (range.length == 2) {
                DayOfWeek from = day(range[0], text);
                DayOfWeek to = day(range[1], text);
                for (DayOfWeek d = from; ; d = d.plus(1)) {
                    days.add(d);
                    if (d == to) {
                        break;
                    }
                }
            } else {
                throw new IllegalArgumentException("window '" + text + "': cannot read days '" + item + "'");
            }
        }
        return days;
    }

    private static DayOfWeek day(String word, String text) {
        for (DayOfWeek d : DayOfWeek.values()) {
            String full = d.name().toLowerCase(Locale.ROOT);
            if (word.length() >= 3 && full.startsWith(word)) {
                return d;
            }
        }
        throw new IllegalArgumentException(
                "window '" + text + "': unknown day '" + word + "' (Mon, Tue, Wed, Thu, Fri, Sat, Sun, daily)");
    }

    private static LocalTime time(String hhmm, String text) {
        try {
            return LocalTime.parse(hhmm.length() == 4 ? "0" + hhmm : hhmm);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("window '" + text + "': cannot read time '" + hhmm + "' (HH:MM)");
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
