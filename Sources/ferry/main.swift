import FerryKit

print("ferry \(FerryVersion.string)")
