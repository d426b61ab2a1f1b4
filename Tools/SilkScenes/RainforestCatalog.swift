import Foundation
import SilkRaster

/// The content of the rainforest demo (the Texture tutorial's app, with Silk's own photos):
/// one card per entry. Photos are in `assets/photos` (see assets/README.md for credits).
public struct RainforestEntry: Sendable {
    public let title: String
    public let description: String
    public let photo: String

    public var photoPath: String? { Assets.photo(photo)?.path }
}

public enum RainforestCatalog {
    public static let entries: [RainforestEntry] = [
        RainforestEntry(title: "Seven-spot ladybird",
                        description: "A beetle the size of a lentil that eats fifty aphids a day. Its bright red wing cases warn birds that it tastes bitter; when threatened it plays dead and bleeds a yellow, foul-smelling fluid from its knees.",
                        photo: "ladybird.jpg"),
        RainforestEntry(title: "Monsoon leaves",
                        description: "In the understory the broad leaves carry drip tips that shed the rain within minutes, so that no film of water lets mosses and fungi take hold. A single tree may hold a thousand litres after a storm.",
                        photo: "raindrops.jpg"),
        RainforestEntry(title: "Leaf veins",
                        description: "Held up to the light, a leaf shows the network that feeds it: a midrib, branching veins and, between them, a mesh so fine that no cell is more than a few cells away from water.",
                        photo: "leaf.jpg"),
        RainforestEntry(title: "Sunflower daisy",
                        description: "What looks like one flower is hundreds: the petals at the rim are sterile ray florets that advertise, and the dark centre packs tiny disc florets that open in a spiral from the edge inwards.",
                        photo: "yellow-flower.jpg"),
        RainforestEntry(title: "Marigold",
                        description: "Gardeners plant it between vegetables for a reason: its roots release a compound that keeps root-knot nematodes away, and its strong scent confuses the insects that hunt crops by smell.",
                        photo: "garden.jpg"),
        RainforestEntry(title: "Dandelion seeds",
                        description: "Each seed hangs under a parachute of about a hundred bristles. The air flowing through them forms a stable vortex ring above the pappus, which lets a seed travel for kilometres on a light breeze.",
                        photo: "dandelion.jpg"),
        RainforestEntry(title: "Rain drop",
                        description: "A falling drop is not tear-shaped but flattened like a bun. When it strikes water it throws up a crown and then a thin column that may launch a second, smaller drop of its own.",
                        photo: "water-drop.jpg"),
        RainforestEntry(title: "Dune grass",
                        description: "Marram grass is what holds a dune together: buried by blowing sand, it grows up through it, a metre a year, and its roots bind the sand into a hill that shelters the land behind it.",
                        photo: "dune.jpg"),
    ]
}
