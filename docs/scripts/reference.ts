export const reference = async (): Promise<number> => 0
