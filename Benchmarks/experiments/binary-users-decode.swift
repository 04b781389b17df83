// How fast could a binary form of the snapshot's users be read, against the JSON decode a nightly spends its first
// 80 ms on? 100,000 synthetic records with about the field lengths of the sandbox's people, written as
// length-prefixed UTF-8, read back into a boxed record of Strings as `User` holds them; five rounds on one core
// (the first one takes fresh memory from the system, the later ones reuse it).
//   swiftc -O Benchmarks/experiments/binary-users-decode.swift -o /tmp/binary-users-decode && /tmp/binary-users-decode
// Not part of the package: a measurement for the plan's kept directory (Benchmarks/README.md).
import Foundation

final class Box {
    var record: Record
    init(_ record: Record) { self.record = record }
}

struct Record {
    var id, userPrincipalName, displayName: String
    var givenName, surname, mail: String?
    var businessPhones: [String]
    var mobilePhone, jobTitle, department, officeLocation, companyName: String?
    var accountEnabled: Bool?
    var userType, employeeId, preferredLanguage: String?
    var managerID, managerName: String?
    var extra: [String: String]
}

var seed: UInt64 = 1
func letters(_ count: Int) -> String {
    var text = ""
    for _ in 0..<count {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text.append(Character(UnicodeScalar(UInt8(97 + (seed >> 33) % 26))))
    }
    return text
}

var bytes: [UInt8] = []
func put(_ text: String?) {
    guard let text else { return bytes += [0xFF, 0xFF] }
    let utf8 = Array(text.utf8)
    bytes += [UInt8(utf8.count & 0xFF), UInt8(utf8.count >> 8)] + utf8
}
let count = 100_000
for _ in 0..<count {
    put(letters(36))
    put(letters(28) + "@contoso.com")
    put(letters(18))
    put(letters(7))
    put(letters(9))
    put(letters(28) + "@contoso.com")
    bytes.append(1)
    put("+1 425 555 0" + letters(3))
    put("+1 425 555 0" + letters(3))
    put(letters(22))
    put(letters(12))
    put(letters(10))
    put("Contoso")
    bytes.append(1)
    put("Member")
    put(letters(6))
    put("en-US")
    put(letters(36))
    put(letters(18))
}
print("\(bytes.count) bytes for \(count) people")

@inline(__always) func read(_ buffer: UnsafeRawBufferPointer, _ index: inout Int) -> String? {
    let length = Int(buffer[index]) | Int(buffer[index + 1]) << 8
    index += 2
    if length == 0xFFFF { return nil }
    defer { index += length }
    return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[index..<index + length]), as: UTF8.self)
}

for round in 1...5 {
    let start = DispatchTime.now().uptimeNanoseconds
    var users: [Box] = []
    users.reserveCapacity(count)
    bytes.withUnsafeBytes { buffer in
        var index = 0
        for _ in 0..<count {
            let id = read(buffer, &index) ?? "", principal = read(buffer, &index) ?? ""
            let name = read(buffer, &index) ?? "", given = read(buffer, &index), surname = read(buffer, &index)
            let mail = read(buffer, &index)
            let phoneCount = Int(buffer[index])
            index += 1
            var phones: [String] = []
            for _ in 0..<phoneCount { phones.append(read(buffer, &index) ?? "") }
            let mobile = read(buffer, &index), title = read(buffer, &index), department = read(buffer, &index)
            let office = read(buffer, &index), company = read(buffer, &index)
            let enabled = buffer[index] == 1
            index += 1
            let type = read(buffer, &index), employee = read(buffer, &index), language = read(buffer, &index)
            let managerID = read(buffer, &index), managerName = read(buffer, &index)
            users.append(
                Box(
                    Record(
                        id: id, userPrincipalName: principal, displayName: name, givenName: given, surname: surname,
                        mail: mail, businessPhones: phones, mobilePhone: mobile, jobTitle: title,
                        department: department, officeLocation: office, companyName: company,
                        accountEnabled: enabled, userType: type, employeeId: employee, preferredLanguage: language,
                        managerID: managerID, managerName: managerName, extra: [:])))
        }
    }
    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    print("round \(round): \(String(format: "%.1f", milliseconds)) ms for \(users.count) people, one core")
}
