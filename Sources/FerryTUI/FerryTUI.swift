import FerryQueue

/// `FerryTUI` is the namespace of the terminal front end.
public enum FerryTUI {}
