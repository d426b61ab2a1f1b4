import Silk

/// One animal of the tutorial's catalogue. The photos are Silk's demo photos (`assets/photos`,
/// found through `Assets`, or `SILK_ASSETS`).
struct Animal: Sendable {
    let name: String
    let story: String
    let photo: String

    static let all: [Animal] = [
        Animal(name: "Ladybird", story: "Eats fifty aphids a day and plays dead when a bird comes close.", photo: "ladybird.jpg"),
        Animal(name: "Rain on leaves", story: "Drip tips shed the water in minutes, before moss can settle.", photo: "raindrops.jpg"),
        Animal(name: "A leaf, backlit", story: "No cell is more than a few cells away from a vein.", photo: "leaf.jpg"),
        Animal(name: "Daisy", story: "Hundreds of tiny florets, opening in a spiral from the rim.", photo: "yellow-flower.jpg"),
        Animal(name: "Dandelion", story: "A vortex ring above each parachute carries the seed for miles.", photo: "dandelion.jpg"),
        Animal(name: "Marram grass", story: "Buried by sand, it grows through it and holds the dune.", photo: "dune.jpg"),
    ]

    /// The photo's file, or nil when Silk's assets are not found.
    var photoPath: String? { Assets.photo(photo)?.path }
}
