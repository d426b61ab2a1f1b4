import ArgumentParser
print("silk")
