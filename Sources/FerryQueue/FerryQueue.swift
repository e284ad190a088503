/// `FerryQueue` is the namespace of the persistent transfer queue (journal, scheduler, batch input).
public enum FerryQueue {}
