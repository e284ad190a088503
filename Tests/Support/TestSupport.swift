import FerryKit

/// `TestSupport` namespaces helpers shared by the test targets.
public enum TestSupport {}
